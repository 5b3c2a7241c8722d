//! Node counting, the node budget, cancellation and progress: one home for what every search of
//! this crate (`solve`, `prove`, retractors) does at each node.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::Instant,
};

use crate::{Phase, Progress};

/// How often (in nodes) the search looks at the cancel flag and reports progress: often enough to
/// stop well within 100 ms, rarely enough to cost nothing.
const POLL_INTERVAL: u64 = 1 << 10;

pub(crate) struct Budget<'a> {
    pub nodes: u64,
    pub stopped: bool,
    pub start: Instant,
    max_nodes: Option<u64>,
    cancel: Option<Arc<AtomicBool>>,
    progress: Option<&'a mut dyn FnMut(Progress)>,
    /// What the search is doing, as its progress reports say.
    phase: Phase,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(
        max_nodes: Option<u64>,
        cancel: Option<Arc<AtomicBool>>,
        progress: Option<&'a mut dyn FnMut(Progress)>,
    ) -> Budget<'a> {
        Budget {
            nodes: 0,
            stopped: false,
            start: Instant::now(),
            max_nodes,
            cancel,
            progress,
            phase: Phase::Retracting,
        }
    }

    /// Sets the phase the progress reports name; returns the one before.
    pub(crate) fn set_phase(&mut self, phase: Phase) -> Phase {
        std::mem::replace(&mut self.phase, phase)
    }

    /// Hands `progress` to the progress callback, if there is one (for phases other than
    /// retracting, which [`Budget::visit_with`] reports itself).
    pub(crate) fn report(&mut self, progress: Progress) {
        if let Some(callback) = self.progress.as_mut() {
            callback(progress);
        }
    }

    /// The nodes left in the budget (`None`: no budget).
    pub(crate) fn left(&self) -> Option<u64> {
        self.max_nodes.map(|max| max.saturating_sub(self.nodes))
    }

    /// The cancel flag the search looks at, if any.
    pub(crate) fn cancel_flag(&self) -> Option<&AtomicBool> {
        self.cancel.as_deref()
    }

    /// Counts a node; returns false once the search must stop (budget spent or cancelled).
    pub(crate) fn visit(&mut self, ply: u32) -> bool {
        self.visit_with(ply, 0)
    }

    /// [`Budget::visit`], reporting `solutions` found so far in the progress.
    pub(crate) fn visit_with(&mut self, ply: u32, solutions: usize) -> bool {
        self.nodes += 1;
        if self.max_nodes.is_some_and(|max| self.nodes > max) {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            if self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
            {
                self.stopped = true;
            }
            let report = Progress {
                nodes: self.nodes,
                solutions,
                ply,
                elapsed: self.start.elapsed(),
                phase: self.phase,
            };
            if let Some(progress) = self.progress.as_mut() {
                progress(report);
            }
        }
        !self.stopped
    }
}
