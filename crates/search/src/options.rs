//! Switches of a search that only benchmarks and comparisons turn: in use every one stays at its
//! default.

/// What a search may leave out, to measure what it is worth. Turning a switch off makes the search
/// weaker (more nodes), never wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Whether a proof game's distance bound counts where the captured units were taken (on by
    /// default).
    pub capture_squares: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            capture_squares: true,
        }
    }
}
