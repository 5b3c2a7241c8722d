//! Text from files and users made safe to show: control characters escaped so that nothing
//! typed or read can drive the terminal, and a message cut to one short line.

/// `text` with its control characters escaped (`\n` as `\\n`, ESC as `\\u{1b}`): whatever a
/// file or a user typed cannot drive the terminal it is shown on.
#[must_use]
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// A file name as a message shows it: control characters escaped, so a name cannot drive the
/// terminal.
#[must_use]
pub fn shown_path(file: &std::path::Path) -> String {
    escape_controls(&file.display().to_string())
}

/// `text` made fit for one line of a message: control characters escaped, and cut after about
/// [`ONE_LINE_BYTES`] bytes (a 1 MB input line must not come back whole on stderr), at the end
/// of a word where there is one.
#[must_use]
pub fn one_line(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if out.len() >= ONE_LINE_BYTES {
            // Back to the last space, unless that throws most of the line away.
            if let Some(space) = out.rfind(' ').filter(|&i| i >= ONE_LINE_BYTES / 2) {
                out.truncate(space);
            }
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// About how long a message [`one_line`] leaves may be, in bytes.
pub const ONE_LINE_BYTES: usize = 240;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_is_cut_at_the_end_of_a_word() {
        let words = "refused ".repeat(100);
        let cut = one_line(&words);
        assert!(cut.len() <= ONE_LINE_BYTES + 3, "{cut}");
        assert!(cut.ends_with("refused..."), "{cut}");
        // One endless word is cut where the limit falls.
        let word = "x".repeat(1000);
        assert_eq!(one_line(&word).len(), ONE_LINE_BYTES + 3);
    }

    #[test]
    fn messages_are_one_short_line() {
        assert_eq!(one_line("a\rb\nc"), "a\\rb\\nc");
        for long in [
            "x".repeat(10_000),
            "\u{11}".repeat(10_000),
            "１".repeat(10_000),
        ] {
            let short = one_line(&long);
            assert!(short.len() < 260 && short.ends_with("..."), "{short}");
        }
    }
}
