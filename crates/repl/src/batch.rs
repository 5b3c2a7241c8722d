//! Batch mode: one answer per line of standard input, in input order, on `--jobs` threads.
//!
//! A reader thread queues the lines; the lines already queued form a chunk, answered in parallel
//! (rayon) and printed in input order once the chunk is done, so memory stays bounded by the
//! queue however long the input is, a line arriving alone through a pipe is answered at once,
//! and the output does not depend on the number of threads. With one job (and always for
//! answers that stream their own output, as `solve --jsonl` does) each line is answered and
//! printed before the next is read. A progress counter goes to stderr when stderr is a terminal.

use std::{
    io::{self, IsTerminal, Write},
    process::ExitCode,
};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::{
    interrupt::Interrupt,
    lines::{lines, one_line, Line},
    output::{error_json, Answer, CliError},
};

/// Lines answered together per job: enough to keep every thread busy, few enough to bound memory.
const LINES_PER_JOB: usize = 64;

/// The default number of jobs: every core.
#[must_use]
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Answers every line of standard input on `jobs` threads. A bad line (blank, not UTF-8, too
/// long, or not a good input) gives an error line and the batch goes on, so with `--json` output
/// line k answers input line k; the exit status is then 2. An interrupt ends the batch with 130.
pub fn run(
    json: bool,
    jobs: usize,
    interrupt: &Interrupt,
    answer: impl Fn(&str) -> Result<Answer, CliError> + Sync,
) -> Result<ExitCode, CliError> {
    let progress = progress_bar();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| CliError::Internal(format!("cannot start {jobs} jobs: {e}")))?;
    let chunk_len = if jobs <= 1 { 1 } else { jobs * LINES_PER_JOB };
    // A reader thread keeps a bounded queue of lines ahead; each chunk is the lines already
    // there (at least one), so a line typed into a pipe is answered at once and a file fills
    // whole chunks.
    let (sender, queue) = std::sync::mpsc::sync_channel::<Result<Line, CliError>>(chunk_len);
    std::thread::spawn(move || {
        for line in lines(io::stdin().lock()) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut failed = false;
    while let Ok(first) = queue.recv() {
        let mut chunk: Vec<Line> = vec![first?];
        while chunk.len() < chunk_len {
            match queue.try_recv() {
                Ok(line) => chunk.push(line?),
                Err(_) => break,
            }
        }
        let last = chunk.last().map_or(0, |l| l.number);
        let answers: Vec<Result<Answer, CliError>> = if chunk_len == 1 {
            chunk
                .iter()
                .map(|line| answer_line(line, &answer))
                .collect()
        } else {
            pool.install(|| {
                chunk
                    .par_iter()
                    .map(|line| answer_line(line, &answer))
                    .collect()
            })
        };
        for (line, result) in chunk.iter().zip(answers) {
            match result {
                Ok(a) => a.print(json)?,
                Err(err @ CliError::BadInput(_)) => {
                    failed = true;
                    let message = one_line(&err.to_string());
                    if json {
                        writeln!(io::stdout(), "{}", error_json(&message))?;
                    }
                    progress.suspend(|| eprintln!("retrace: line {}: {message}", line.number));
                }
                Err(err) => return Err(err),
            }
            progress.inc(1);
        }
        if interrupt.is_set() {
            progress.finish_and_clear();
            eprintln!("retrace: interrupted after line {last}: the rest was not read");
            return Ok(ExitCode::from(130));
        }
    }
    progress.finish_and_clear();
    Ok(if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
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
        ProgressStyle::with_template("{spinner} {pos} lines answered, {per_sec}, {elapsed}")
    {
        bar.set_style(style);
    }
    bar
}
