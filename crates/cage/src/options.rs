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
    /// The memory the verification's tables may take, in bytes, before it gives up
    /// ([`crate::Failure::MemoryLimit`]): the nodes it keeps waiting and expanded are counted at
    /// their size, so a large `max_nodes` cannot exhaust the machine.
    pub max_bytes: u64,
}

/// The default [`VerifyOptions::max_bytes`]: 512 MiB, some 2 million nodes waiting.
pub const DEFAULT_MAX_BYTES: u64 = 512 << 20;

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            max_nodes: 200_000,
            hwa_only: false,
            capture_charges: true,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}
