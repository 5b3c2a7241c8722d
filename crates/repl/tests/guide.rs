//! docs/guide.md shows real output: every command it shows is run here and its output compared.
//!
//! Two kinds of fenced block are checked, in document order:
//! - shell blocks (fenced as `console`): a line `$ retrace ARGS` (optionally `< FILE`) or
//!   `$ cat FILE` is a command, the lines up to the next `$ ` line or the block's end are its
//!   output (standard output, then standard error). Paths are relative to the repository root.
//! - REPL transcripts: a line `White retracts [N]> COMMAND` (or Black) is a command typed at the
//!   prompt, the lines up to the next prompt its output. All transcripts of the guide are one
//!   session, run as a script; a script prints no prompt, so `show` and `history` after each
//!   command tell the side to retract and the plies retracted, which the next prompt must show.
//!
//! In expected output a line `...` (indented or not) stands for any number of lines. Only what
//! truly varies between runs is normalised: times (`0.4 ms`, `"elapsed_ms":0.31`, masked as the
//! golden tests mask them) and trailing blanks.

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

mod common;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn guide() -> String {
    std::fs::read_to_string(root().join("docs/guide.md")).expect("docs/guide.md is readable")
}

/// One command of the guide with the output it shows.
#[derive(Debug)]
struct Shown {
    /// The prompt shown before a REPL command (empty in a shell block).
    prompt: String,
    /// The command as written (after `$ ` or the prompt).
    command: String,
    /// The output lines shown, `...` included.
    output: Vec<String>,
    /// Line number in the guide of the command, for messages.
    line: usize,
}

/// The commands of the fenced blocks: (shell commands, REPL commands).
fn shown_commands(text: &str) -> (Vec<Shown>, Vec<Shown>) {
    let (mut shell, mut repl) = (Vec::new(), Vec::new());
    let mut fence: Option<String> = None;
    // Whether the open block is a transcript: output lines belong to a prompt of the same block,
    // so a block without one (a file, an example) is not mistaken for output.
    let mut transcript = false;
    for (number, line) in text.lines().enumerate() {
        let number = number + 1;
        if let Some(info) = line.strip_prefix("```") {
            fence = match fence {
                None => Some(info.trim().to_owned()),
                Some(_) => None,
            };
            transcript = false;
            continue;
        }
        let Some(info) = &fence else { continue };
        if info == "console" {
            if let Some(command) = line.strip_prefix("$ ") {
                shell.push(Shown {
                    prompt: String::new(),
                    command: command.to_owned(),
                    output: Vec::new(),
                    line: number,
                });
            } else if let Some(last) = shell.last_mut() {
                last.output.push(line.to_owned());
            }
        } else if let Some((prompt, command)) = split_prompt(line) {
            transcript = true;
            repl.push(Shown {
                prompt: prompt.to_owned(),
                command: command.to_owned(),
                output: Vec::new(),
                line: number,
            });
        } else if let Some(last) = repl.last_mut().filter(|_| transcript) {
            last.output.push(line.to_owned());
        }
    }
    (shell, repl)
}

/// Times vary from run to run; nothing else does.
fn normalise(text: &str) -> Vec<String> {
    common::mask_timings(text)
        .lines()
        .map(|line| line.trim_end().to_owned())
        .collect()
}

/// The prompt at the start of `line` (`White retracts [3]> `) and the command after it.
fn split_prompt(line: &str) -> Option<(&str, &str)> {
    let after_side = line
        .strip_prefix("White retracts [")
        .or_else(|| line.strip_prefix("Black retracts ["))?;
    let (plies, _) = after_side.split_once("]> ")?;
    if plies.is_empty() || !plies.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let end = line.len() - after_side.len() + plies.len() + "]> ".len();
    Some(line.split_at(end))
}

/// Whether `actual` matches `expected`, where a line `...` matches any number of lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, others)| line == first && matches(rest, others)),
    }
}

fn assert_shown(shown: &Shown, actual: &str) {
    let expected = normalise(&shown.output.join("\n"));
    let actual = normalise(actual);
    assert!(
        matches(&expected, &actual),
        "docs/guide.md line {}: `{}` prints\n{}\n---- but the guide shows ----\n{}",
        shown.line,
        shown.command,
        actual.join("\n"),
        expected.join("\n")
    );
}

/// Runs one shell command of the guide: `retrace ARGS [< FILE]` or `cat FILE`.
fn run_shell(shown: &Shown) -> String {
    let mut words = shlex::split(&shown.command)
        .unwrap_or_else(|| panic!("line {}: cannot split `{}`", shown.line, shown.command));
    let stdin = match words.iter().position(|w| w == "<") {
        Some(at) => {
            let file = words.get(at + 1).cloned().expect("a file after <");
            words.truncate(at);
            Stdio::from(std::fs::File::open(root().join(&file)).expect("the input file exists"))
        }
        None => Stdio::null(),
    };
    match words.first().map(String::as_str) {
        Some("cat") => {
            assert!(words.len() == 2, "line {}: cat takes one file", shown.line);
            std::fs::read_to_string(root().join(&words[1])).expect("the file exists")
        }
        Some("retrace") => {
            let out = Command::new(env!("CARGO_BIN_EXE_retrace"))
                .args(&words[1..])
                .current_dir(root())
                .env("NO_COLOR", "1")
                .stdin(stdin)
                .output()
                .expect("the binary runs");
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        }
        _ => panic!(
            "line {}: the guide's shell blocks run only retrace and cat: `{}`",
            shown.line, shown.command
        ),
    }
}

#[test]
fn every_shell_command_of_the_guide_prints_what_the_guide_shows() {
    let (shell, _) = shown_commands(&guide());
    assert!(shell.len() >= 8, "the course shows its commands");
    for shown in &shell {
        assert_shown(shown, &run_shell(shown));
    }
}

/// The prompt a session in this state shows, from the outputs of `show` and `history`.
fn prompt_after(show: &str, history: &str) -> String {
    let side = show
        .lines()
        .rev()
        .find_map(|l| l.split_once(" retracts: ").map(|(side, _)| side))
        .unwrap_or_else(|| panic!("show names the side that retracts: {show}"));
    let plies = history
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("retracted (last move first): "))
        .map_or(0, |moves| moves.split_whitespace().count());
    format!("{side} retracts [{plies}]> ")
}

/// The guide's REPL transcripts run as one script, with `help quit` between the commands so that
/// each command's output can be told apart (its text is read from the program first). After each
/// command `show` and `history` tell the side to retract and the plies retracted, which the next
/// prompt shown must name.
#[test]
fn every_repl_transcript_of_the_guide_prints_what_the_guide_shows() {
    let (_, repl) = shown_commands(&guide());
    assert!(repl.len() >= 10, "the guide walks through a session");
    let script = |lines: &[&str]| {
        let dir = std::env::temp_dir().join(format!("retrace-guide-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("session.txt");
        std::fs::write(&file, lines.join("\n") + "\n").expect("script written");
        let out = Command::new(env!("CARGO_BIN_EXE_retrace"))
            .args(["repl", "--script"])
            .arg(&file)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("the binary runs");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            out.stderr.is_empty(),
            "the guide's session has an error: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8 output")
    };
    let separator = script(&["help quit"]);
    assert!(!separator.trim().is_empty(), "help quit prints its help");
    let mut lines = vec!["show", "help quit", "history", "help quit"];
    for shown in &repl {
        lines.extend([shown.command.as_str(), "help quit"]);
        lines.extend(["show", "help quit", "history", "help quit"]);
    }
    let output = script(&lines);
    let outputs: Vec<&str> = output.split(separator.as_str()).collect();
    assert_eq!(
        outputs.len(),
        3 * repl.len() + 3,
        "every command's output ends where the separator begins"
    );
    for (k, shown) in repl.iter().enumerate() {
        let expected = prompt_after(outputs[3 * k], outputs[3 * k + 1]);
        assert_eq!(
            shown.prompt, expected,
            "docs/guide.md line {}: the prompt before `{}`",
            shown.line, shown.command
        );
        assert_shown(shown, outputs[3 * k + 2]);
    }
}

#[test]
fn the_matcher_tells_wrong_output_apart() {
    let lines = |s: &str| s.lines().map(str::to_owned).collect::<Vec<_>>();
    assert!(matches(&lines("a\n...\nd"), &lines("a\nb\nc\nd")));
    assert!(matches(&lines("a\n...\nd"), &lines("a\nd")));
    assert!(!matches(&lines("a\n...\nd"), &lines("a\nb\nc")));
    assert!(!matches(&lines("a\nb"), &lines("a\nb\nc")));
    assert_eq!(
        normalise("1 solution (50 nodes, 0.3 ms)\n{\"elapsed_ms\":1.5} "),
        normalise("1 solution (50 nodes, 12.5 ms)\n{\"elapsed_ms\":0.25}")
    );
    assert_eq!(
        split_prompt("White retracts [12]> solve 1"),
        Some(("White retracts [12]> ", "solve 1"))
    );
    assert_eq!(split_prompt("White retracts: 10 legal retractions"), None);
    assert_ne!(normalise("(50 nodes"), normalise("(51 nodes"));
}
