//! Ctrl-C for the subcommands and scripts: one flag, made by [`Interrupt::install`] and handed to
//! every search, which polls it and stops with what it found (the terminal REPL keeps a flag of
//! its own, to return to its prompt instead).

use std::{
    io::Write,
    process::ExitCode,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::Duration,
};

/// How long work that does not look at the flag (a read blocked on a pipe, say) may go on after
/// Ctrl-C before the process ends anyway, so that every command stops within 0.2 s.
pub const GRACE: Duration = Duration::from_millis(100);

/// How long a command that noticed the interrupt may take to print what it has: the process ends
/// after it even if that printing is stuck (on a full pipe nobody reads).
pub const BACKSTOP: Duration = Duration::from_secs(2);

/// The exit status after Ctrl-C.
pub const INTERRUPTED_STATUS: u8 = 130;

/// The interrupt flag of one run, and whether the run has noticed it.
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    noticed: Arc<AtomicBool>,
}

impl Interrupt {
    /// A flag nothing sets but [`Interrupt::set`] (for a run without a handler).
    #[must_use]
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// The flag, with a Ctrl-C handler installed that sets it. What has not wound down and exited
    /// [`GRACE`] later is cut off with exit status 130 and a line saying the answer is
    /// incomplete, unless the run [noticed](Interrupt::notice) the interrupt and is printing what
    /// it has (then it gets [`BACKSTOP`]). The handler runs on a thread of its own, so waiting
    /// there blocks nothing. If no handler can be installed, Ctrl-C ends the process as the
    /// default signal does.
    #[must_use]
    pub fn install() -> Interrupt {
        let interrupt = Interrupt::new();
        let handler = interrupt.clone();
        let _ = ctrlc::set_handler(move || {
            handler.set();
            std::thread::sleep(GRACE);
            if handler.noticed.load(Ordering::Relaxed) {
                std::thread::sleep(BACKSTOP);
            }
            let _ = writeln!(
                std::io::stderr(),
                "retrace: interrupted before the answer was complete"
            );
            std::process::exit(i32::from(INTERRUPTED_STATUS));
        });
        interrupt
    }

    /// Says that the work about to run looks at the flag (a search given it as its cancel flag)
    /// and prints what it found once it returns: after Ctrl-C the handler then gives it
    /// [`BACKSTOP`] to do so rather than [`GRACE`], as for a run that [noticed](Interrupt::notice)
    /// the interrupt.
    pub fn heed(&self) {
        self.noticed.store(true, Ordering::Relaxed);
    }

    /// Sets the flag, as Ctrl-C does.
    pub fn set(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether Ctrl-C came.
    #[must_use]
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// The flag itself, for the searches' `cancel`.
    #[must_use]
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Says that the run saw the interrupt and is printing what it has, so the handler gives it
    /// [`BACKSTOP`] rather than [`GRACE`].
    pub fn notice(&self) {
        self.noticed.store(true, Ordering::Relaxed);
    }

    /// 130 after an interrupt, else success.
    #[must_use]
    pub fn status(&self) -> ExitCode {
        if self.is_set() {
            ExitCode::from(INTERRUPTED_STATUS)
        } else {
            ExitCode::SUCCESS
        }
    }
}
