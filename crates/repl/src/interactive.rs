//! The terminal front end: rustyline with history and completion, Ctrl-C that cancels.

use std::{
    path::PathBuf,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use rustyline::{
    completion::{Completer, FilenameCompleter, Pair},
    error::ReadlineError,
    highlight::Highlighter,
    hint::Hinter,
    history::DefaultHistory,
    validate::Validator,
    Context, Editor, Helper,
};

use crate::{
    board::Style,
    output::{escape_controls, print, to_stderr, CliError},
    session::{Hooks, Outcome, Session},
};

/// Completes commands at the start of a line, legal retractions after `retract` or alone, the
/// subcommands of `cage`, and file names where a command takes a file.
#[derive(Default)]
struct Completion {
    commands: Vec<String>,
    retractions: Vec<String>,
    files: FilenameCompleter,
}

/// The subcommands of `cage`, as `help cage` lists them.
const CAGE_ACTIONS: [&str; 5] = ["verify", "list", "forget", "export", "import"];

impl Completion {
    /// Whether the word being typed after `args` is a file name.
    fn wants_file(args: &[&str]) -> bool {
        matches!(
            args,
            ["save" | "load"]
                | ["cage", "export" | "import"]
                | ["export", "pgn" | "fen"]
                | ["export", "solutions", "pgn" | "fen"]
                | ["proofgame", .., "pgn"]
        )
    }
}

impl Completer for Completion {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        context: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let args: Vec<&str> = before[..start].split_whitespace().collect();
        if Completion::wants_file(&args) {
            return self.files.complete(line, pos, context);
        }
        // A move alone is a command too, so the first word may be either.
        let words: Box<dyn Iterator<Item = &str>> = match args.as_slice() {
            [] => Box::new(
                self.commands
                    .iter()
                    .chain(&self.retractions)
                    .map(String::as_str),
            ),
            ["retract" | "paste", ..] => Box::new(self.retractions.iter().map(String::as_str)),
            ["cage"] => Box::new(CAGE_ACTIONS.into_iter()),
            _ => Box::new(std::iter::empty()),
        };
        let candidates = words
            .filter(|w| w.starts_with(word))
            .map(|w| Pair {
                display: w.to_owned(),
                replacement: w.to_owned(),
            })
            .collect();
        Ok((start, candidates))
    }
}

impl Hinter for Completion {
    type Hint = String;
}
impl Highlighter for Completion {}
impl Validator for Completion {}
impl Helper for Completion {}

/// Where the history is kept: `$RETRACE_HISTORY`, else the user's data directory.
fn history_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("RETRACE_HISTORY") {
        return Some(PathBuf::from(path));
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/share"))
        })?;
    Some(data.join("retrace").join("history"))
}

/// How often the progress of a long search is redrawn: a few times a second, whatever the speed
/// of the search (drawing at every report slowed the search and flooded the terminal).
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Runs the REPL on a terminal until Ctrl-D or `quit`; the number of files that could not be
/// written (the run then ends with exit status 1).
pub fn run() -> Result<u32, CliError> {
    let mut editor: Editor<Completion, DefaultHistory> =
        Editor::new().map_err(|e| CliError::Internal(format!("cannot start line editing: {e}")))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    // While a command runs the terminal is not in raw mode, so Ctrl-C arrives as a signal: it
    // cancels the search instead of killing the session. Installed after the editor, which sets a
    // SIGINT handler of its own when it starts (at the prompt, raw mode reads Ctrl-C as a key).
    ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
        .map_err(|e| CliError::Internal(format!("cannot catch Ctrl-C: {e}")))?;
    editor.set_helper(Some(Completion::default()));
    let history = history_path();
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    let mut session = Session::new(Style::detect());
    print(&format!(
        "Retrace: play chess backwards. Type help for the commands, Tab to complete.\n{}\n",
        session_show(&mut session, &cancel)
    ))?;
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.commands = crate::help::COMMANDS
                .iter()
                .map(|c| c.name.to_owned())
                .collect();
            helper.retractions = session.retraction_words();
        }
        match editor.readline(&session.prompt()) {
            Ok(input) => {
                // A paste of several lines arrives as one: each line is a command, in order, as
                // if typed at the prompt.
                let mut quit = false;
                for line in input.split(['\n', '\r']).filter(|l| !l.trim().is_empty()) {
                    let _ = editor.add_history_entry(line);
                    if run_line(&mut session, line, &cancel)? {
                        quit = true;
                        break;
                    }
                }
                if quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => print("^C (Ctrl-D or quit to leave)\n")?,
            Err(ReadlineError::Eof) => break,
            Err(err) => {
                return Err(CliError::Internal(format!(
                    "cannot read the terminal: {err}"
                )))
            }
        }
    }
    if let Some(path) = &history {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(path);
    }
    Ok(session.failed_writes())
}

fn session_show(session: &mut Session, cancel: &Arc<AtomicBool>) -> String {
    let mut ignore = |_: retrace_search::Progress| {};
    let mut hooks = Hooks {
        cancel: Arc::clone(cancel),
        progress: &mut ignore,
    };
    match session.execute("show", &mut hooks) {
        Ok(Outcome::Show(text)) => text,
        _ => String::new(),
    }
}

/// Runs one command line, with the live progress of a long search on stderr; true to quit.
fn run_line(session: &mut Session, line: &str, cancel: &Arc<AtomicBool>) -> Result<bool, CliError> {
    cancel.store(false, Ordering::Relaxed);
    let mut last_drawn: Option<Instant> = None;
    let mut progress = |p: retrace_search::Progress| {
        if last_drawn.is_some_and(|t| t.elapsed() < PROGRESS_EVERY) {
            return;
        }
        last_drawn = Some(Instant::now());
        let seconds = p.elapsed.as_secs_f64();
        to_stderr(&match p.phase {
            retrace_search::Phase::ForwardLayers { positions } => {
                format!("\r  forward layers: {positions} positions, {seconds:.1} s   ")
            }
            retrace_search::Phase::Forward => {
                format!("\r  {} nodes, playing forward, {seconds:.1} s   ", p.nodes)
            }
            retrace_search::Phase::Retracting => format!(
                "\r  {} nodes, ply {}, {} solutions, {seconds:.1} s   ",
                p.nodes, p.ply, p.solutions
            ),
        });
    };
    let mut hooks = Hooks {
        cancel: Arc::clone(cancel),
        progress: &mut progress,
    };
    let result = session.execute(line, &mut hooks);
    if cancel.load(Ordering::Relaxed) {
        to_stderr(&format!("\r  interrupted{:40}\n", ""));
    } else if last_drawn.is_some() {
        to_stderr(&format!("\r{:60}\r", ""));
    }
    // Text a command made is shown as it is (the board may be coloured); an error may quote a
    // file or what was typed, so its control characters are escaped.
    match result {
        Ok(Outcome::Quit) => return Ok(true),
        Ok(Outcome::Show(text)) if text.is_empty() => {}
        Ok(Outcome::Show(text)) => print(&format!("{text}\n"))?,
        Ok(Outcome::Partial { text, error }) => print(&format!(
            "{text}\nerror: {}\n",
            escape_controls(&error.to_string())
        ))?,
        Err(err) => print(&format!("error: {}\n", escape_controls(&err.to_string())))?,
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use rustyline::{completion::Completer, history::DefaultHistory, Context};

    use super::Completion;

    /// The replacements offered for `line` with the cursor at its end.
    fn offered(completion: &Completion, line: &str) -> (usize, Vec<String>) {
        let history = DefaultHistory::new();
        let context = Context::new(&history);
        let (start, pairs) = completion
            .complete(line, line.len(), &context)
            .expect("completion");
        (start, pairs.into_iter().map(|p| p.replacement).collect())
    }

    #[test]
    fn tab_completes_cage_subcommands_and_file_names() {
        let completion = Completion {
            commands: vec!["cage".into(), "check".into()],
            ..Completion::default()
        };
        assert_eq!(offered(&completion, "ca"), (0, vec!["cage".to_owned()]));
        assert_eq!(
            offered(&completion, "cage ex"),
            (5, vec!["export".to_owned()])
        );
        assert_eq!(offered(&completion, "cage ").1.len(), 5);
        // A file name: this crate's own manifest, from its directory.
        let dir = env!("CARGO_MANIFEST_DIR");
        for line in [
            format!("cage import {dir}/Cargo.to"),
            format!("save {dir}/Cargo.to"),
            format!("export solutions pgn {dir}/Cargo.to"),
        ] {
            let (_, files) = offered(&completion, &line);
            assert!(
                files.iter().any(|f| f.ends_with("Cargo.toml")),
                "{line}: {files:?}"
            );
        }
        // Not where a command takes no file.
        assert!(offered(&completion, &format!("check {dir}/Cargo.to"))
            .1
            .is_empty());
    }
}
