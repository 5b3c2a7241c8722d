//! Batch mode: one answer per line of standard input, in input order, on `--jobs` threads.
//!
//! A reader thread reads the lines; the main thread hands them to `jobs` worker threads and
//! prints each answer as soon as it and every answer before it are done. At most a window of
//! lines is out (handed over but not printed), so memory stays bounded however long the input
//! is, a line arriving alone through a pipe is answered at once, and the output does not depend
//! on the number of threads. With one job the window is one line: each line is answered and
//! printed before the next is handed over (answers that stream their own output, as
//! `solve --jsonl` does, run so). A progress counter goes to stderr when stderr is a terminal.
//!
//! Ctrl-C stops the handing over: no line starts after it, the lines being answered finish (their
//! searches stop at once and say they are incomplete), every answer finished is printed in input
//! order, and the batch says after which line it stopped.

use std::{
    collections::BTreeMap,
    io::{self, IsTerminal},
    num::NonZeroUsize,
    process::ExitCode,
    sync::{
        mpsc::{self, RecvTimeoutError, TryRecvError},
        Mutex,
    },
    time::Duration,
};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::{
    interrupt::Interrupt,
    lines::{lines, Line},
    output::one_line,
    output::{self, error_json, Answer, CliError},
};

/// Lines out per job: enough to keep every thread busy, few enough to bound memory.
const LINES_PER_JOB: usize = 64;

/// The most jobs per core `--jobs` accepts: more only costs memory and thread starts.
pub const MAX_JOBS_PER_CORE: usize = 8;

/// How often the main thread looks at the interrupt flag while it waits.
const TICK: Duration = Duration::from_millis(20);

/// The cores of this machine (1 when it cannot be told).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// The default number of jobs: every core.
#[must_use]
pub fn default_jobs() -> usize {
    cores()
}

/// The most jobs a batch may run: [`MAX_JOBS_PER_CORE`] per core.
#[must_use]
pub fn max_jobs() -> usize {
    cores() * MAX_JOBS_PER_CORE
}

/// Reads `--jobs N`: a whole number from 1 to [`max_jobs`].
pub fn parse_jobs(text: &str) -> Result<u16, String> {
    let max = max_jobs();
    text.trim()
        .parse::<u16>()
        .ok()
        .filter(|&n| n >= 1 && usize::from(n) <= max)
        .ok_or_else(|| {
            format!(
                "'{text}' jobs: give a whole number from 1 to {max} ({MAX_JOBS_PER_CORE} per core \
                 on this machine's {})",
                cores()
            )
        })
}

/// Answers every line of standard input on `jobs` threads. A bad line (blank, not UTF-8, too
/// long, or not a good input) gives an error line and the batch goes on, so with `--json` output
/// line k answers input line k; the exit status is then 2. An interrupt ends the batch with 130
/// once the answers finished are printed.
pub fn run(
    json: bool,
    jobs: usize,
    interrupt: &Interrupt,
    answer: impl Fn(&str) -> Result<Answer, CliError> + Sync,
) -> Result<ExitCode, CliError> {
    let jobs = jobs.max(1);
    let window = if jobs == 1 { 1 } else { jobs * LINES_PER_JOB };
    let (sender, input) = mpsc::sync_channel::<Result<Line, CliError>>(window);
    std::thread::spawn(move || {
        for line in lines(io::stdin().lock()) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let (work_sender, work) = mpsc::channel::<Line>();
    let work = Mutex::new(work);
    let (done_sender, done) = mpsc::channel::<(usize, Option<Result<Answer, CliError>>)>();
    let mut printer = Printer::new(json);
    let ended = std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (work, done_sender, answer) = (&work, done_sender.clone(), &answer);
            scope.spawn(move || loop {
                // The flag is read under the queue's lock, so the lines that start are the first
                // ones: after Ctrl-C no line starts, and each is handed back unanswered.
                let Ok(Ok((line, start))) = work
                    .lock()
                    .map(|queue| queue.recv().map(|line| (line, !interrupt.is_set())))
                else {
                    break;
                };
                let result = start.then(|| answer_line(&line, answer));
                if done_sender.send((line.number, result)).is_err() {
                    break;
                }
            });
        }
        drop(done_sender);
        let ended = dispatch(&input, &work_sender, &done, window, interrupt, &mut printer);
        if ended.is_err() {
            // Nothing more will be printed: the lines out stop at once.
            interrupt.set();
        }
        // The workers end when the queue does.
        drop(work_sender);
        ended
    });
    printer.progress.finish_and_clear();
    match ended? {
        End::Input => Ok(if printer.failed {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        }),
        End::Interrupted => {
            output::warn(&format!(
                "interrupted after line {}: the rest was not answered",
                printer.printed
            ));
            Ok(interrupt.status())
        }
    }
}

/// Why a batch ended.
enum End {
    /// The input ended, every line answered.
    Input,
    /// Ctrl-C: the answers finished were printed.
    Interrupted,
}

/// Hands lines to the workers, at most `window` out at a time, and prints their answers in input
/// order until the input ends or Ctrl-C comes.
fn dispatch(
    input: &mpsc::Receiver<Result<Line, CliError>>,
    work: &mpsc::Sender<Line>,
    done: &mpsc::Receiver<(usize, Option<Result<Answer, CliError>>)>,
    window: usize,
    interrupt: &Interrupt,
    printer: &mut Printer,
) -> Result<End, CliError> {
    let mut pending: BTreeMap<usize, Option<Result<Answer, CliError>>> = BTreeMap::new();
    // Lines handed over and answers received (each line's number is its rank in the input).
    let (mut handed, mut received) = (0usize, 0usize);
    let mut input_error = None;
    let mut input_done = false;
    let mut stopping = false;
    loop {
        if interrupt.is_set() && !stopping {
            stopping = true;
            interrupt.notice();
        }
        // Hand lines over while fewer than `window` are out; wait for input (a tick at a time,
        // to see Ctrl-C) only when none is.
        while !stopping && !input_done && handed - printer.printed < window {
            let next = if handed == printer.printed {
                match input.recv_timeout(TICK) {
                    Ok(line) => Ok(line),
                    Err(RecvTimeoutError::Timeout) => Err(false),
                    Err(RecvTimeoutError::Disconnected) => Err(true),
                }
            } else {
                match input.try_recv() {
                    Ok(line) => Ok(line),
                    Err(TryRecvError::Empty) => Err(false),
                    Err(TryRecvError::Disconnected) => Err(true),
                }
            };
            match next {
                Ok(Ok(line)) => {
                    handed = line.number;
                    if work.send(line).is_err() {
                        return Err(CliError::Internal("the batch's workers stopped".into()));
                    }
                }
                Ok(Err(err)) => {
                    input_error = Some(err);
                    input_done = true;
                }
                Err(ended) => {
                    input_done = ended;
                    break;
                }
            }
        }
        if received == handed {
            if input_done || stopping {
                break;
            }
            continue;
        }
        match done.recv_timeout(TICK) {
            Ok((number, result)) => {
                received += 1;
                pending.insert(number, result);
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(CliError::Internal("the batch's workers stopped".into()))
            }
        }
        while let Some(entry) = pending.first_entry() {
            let number = *entry.key();
            if number != printer.printed + 1 {
                break;
            }
            match entry.remove() {
                Some(result) => printer.print(number, result)?,
                // Not answered (Ctrl-C came first): nor is any line after it.
                None => {
                    stopping = true;
                    break;
                }
            }
        }
    }
    if let Some(err) = input_error {
        return Err(err);
    }
    Ok(if stopping {
        End::Interrupted
    } else {
        End::Input
    })
}

/// Prints the answers of a batch in order, and counts them.
struct Printer {
    json: bool,
    progress: ProgressBar,
    /// The lines printed (answers or errors): the last one printed is line `printed`.
    printed: usize,
    /// Whether a line was bad input.
    failed: bool,
}

impl Printer {
    fn new(json: bool) -> Printer {
        Printer {
            json,
            progress: progress_bar(),
            printed: 0,
            failed: false,
        }
    }

    /// Prints the answer to line `number`, or its error line.
    fn print(&mut self, number: usize, result: Result<Answer, CliError>) -> Result<(), CliError> {
        match result {
            Ok(answer) => answer.print(self.json)?,
            Err(err @ CliError::BadInput(_)) => {
                self.failed = true;
                let message = one_line(&err.to_string());
                if self.json {
                    output::print(&format!("{}\n", error_json(&message)))?;
                }
                self.progress
                    .suspend(|| output::warn(&format!("line {number}: {message}")));
            }
            Err(err) => return Err(err),
        }
        self.printed = number;
        self.progress.inc(1);
        Ok(())
    }
}

fn answer_line(
    line: &Line,
    answer: &(impl Fn(&str) -> Result<Answer, CliError> + Sync),
) -> Result<Answer, CliError> {
    match &line.text {
        Ok(text) if text.trim().is_empty() => Err(CliError::BadInput("the line is empty".into())),
        Ok(text) => answer(text),
        Err(err) => Err(CliError::BadInput(err.to_string())),
    }
}

/// A counter of the lines answered, drawn on stderr only when stderr is a terminal.
fn progress_bar() -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} lines answered: {pos} ({per_sec}, {elapsed})")
    {
        bar.set_style(style);
    }
    bar
}
