//! The settings of a verification.

/// Settings of a verification ([`crate::verify_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VerifyOptions {
    /// Nodes expanded before giving up ([`crate::Failure::NodeLimit`]); at most four times as many are
    /// kept waiting, which bounds the memory a verification takes.
    pub max_nodes: u64,
    /// Hwa's algorithm alone: only unblockable checks, no capture counting. For comparison only;
    /// Retrace's default rules prove strictly more and are just as sound.
    pub hwa_only: bool,
    /// The capture charges of the node rules: originals proven captured at home
    /// (`dead_at_home`) and promoted bishops' promotions. On by default; off only to measure
    /// what they cost and prove.
    pub capture_charges: bool,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            max_nodes: 200_000,
            hwa_only: false,
            capture_charges: true,
        }
    }
}
