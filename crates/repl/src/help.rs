//! The commands of the REPL and their help.

/// One command: its name, how to call it, what it does.
pub struct CommandHelp {
    pub name: &'static str,
    pub usage: &'static str,
    pub what: &'static str,
}

pub const COMMANDS: &[CommandHelp] = &[
    CommandHelp { name: "fen", usage: "fen <FEN>", what: "Set up a position from a full FEN. The side not to move made the last move and retracts first; castling rights freeze king and rook; an en passant square forces the first retraction." },
    CommandHelp { name: "board", usage: "board <BOARD> <w|b>", what: "Set up a board field alone; w or b names the side that made the last move." },
    CommandHelp { name: "pieces", usage: "pieces white Kh1 Qf8 e2 black Kf6 retract <w|b>", what: "Set up from a list of units (a square alone is a pawn); retract names the side that made the last move." },
    CommandHelp { name: "show", usage: "show", what: "Draw the board, the FEN, the marks, and how many retractions there are." },
    CommandHelp { name: "flip", usage: "flip", what: "Turn the board around." },
    CommandHelp { name: "list", usage: "list", what: "Number every legal retraction, one line per unit." },
    CommandHelp { name: "retract", usage: "retract <move|number>", what: "Take back a move, e.g. 'retract Kf5xNe5' or 'retract 3' (a number from list). A move or number typed alone does the same." },
    CommandHelp { name: "paste", usage: "paste <move> <move> ...", what: "Retract a sequence, last move first; all of it or nothing." },
    CommandHelp { name: "undo", usage: "undo", what: "Step forward again (put the last retracted move back)." },
    CommandHelp { name: "redo", usage: "redo", what: "Retract again what undo put back." },
    CommandHelp { name: "start", usage: "start", what: "Go back to the position set up (redo walks the line again)." },
    CommandHelp { name: "back", usage: "back", what: "Right after a retraction (or a paste) into an illegal position: take it back (the whole paste). Any other command goes on, with the line marked ILLEGAL." },
    CommandHelp { name: "history", usage: "history", what: "The retractions taken, last move first, and the same line as a forward game in PGN." },
    CommandHelp { name: "check", usage: "check [exact-fen]", what: "The static legality analysis: the reasons a position is illegal, and the captures and promotions it needs. When it finds no contradiction, small clusters of touching units are tried as cages automatically (within a node budget; only a verified cage counts). With exact-fen the position's castling and en passant fields (as show prints them) are read as complete: a right it lacks while its king and rook stand at home was lost (the king or rook moved), and '-' says no en passant capture was legal; a lost right whose king and rook never moved (lost_right_unmoved), or a '-' that rules out every last move (en_passant_field), makes the position illegal." },
    CommandHelp { name: "rights", usage: "rights", what: "Castling and e.p. rights of the board (its own rights ignored): each castling right impossible or possible, each e.p. capture proven or not, the sets of rights possible together." },
    CommandHelp { name: "solve", usage: "solve N [extra E] [max M] [nodes K] [no-uncapture white|black|both] [auto-cages on|off] [exact-fen]", what: "Find every sequence of the last N moves after which E more retractions exist (E is 3 unless given); candidates that reach a cage die, and the answer says why (auto-cages off shows them). Max stops after M solutions, nodes after visiting K positions; Ctrl-C stops it and keeps what it found. The first 1000 solutions are kept, the rest counted. Exact-fen reads the castling and en passant fields as complete, as check exact-fen does: no last move is a double step the en passant field rules out, and no line leaves a lost castling right unexplainable." },
    CommandHelp { name: "prove", usage: "prove N [nodes K] [exact-fen]", what: "Legality by retraction: look for a history N plies deep. If there is one it is shown (step 1 walks into it); if every line dies or repeats earlier, the position is illegal, and each last move is listed with how long its longest line lasts and what cut it (an illegal position, a cage, a closure, the depth). A position whose lines only go round in a finite set is called illegal by closure. Nodes gives up after visiting K positions; Ctrl-C stops it. With exact-fen the castling and en passant fields are read as complete, as check exact-fen reads them: the double steps the en passant field rules out as the last move, and the lines on which a lost castling right can no longer be explained, are cut by the facts." },
    CommandHelp { name: "retractor", usage: "retractor proca|hoeg|help N #M|=M|s#M", what: "Solve a retractor from the current position (Black to move): White retracts N moves, Black in between, then the forward goal. Prints keys, defences and tries; step K walks the main line of key K (see docs/retractors.md)." },
    CommandHelp { name: "proofgame", usage: "proofgame N [max M] [pgn FILE] | proofgame plies P ... | proofgame shortest [longest N] ...", what: "Find every game of exactly N moves from the initial array that reaches this position (N.5 when Black is to move; or plies P); with shortest, the games of the fewest moves, each length searched completely before the next (up to 30 moves, or longest N). The games print forward as game scores; unique is said only when the search was complete. pgn FILE writes them as PGN; step K walks into game K. Ctrl-C stops it and keeps what it found." },
    CommandHelp { name: "solutions", usage: "solutions", what: "List the solutions of the last solve again." },
    CommandHelp { name: "step", usage: "step <K>", what: "Walk into solution K of the last solve; undo and redo then walk along it." },
    CommandHelp { name: "mark", usage: "mark frozen|promoted <square>", what: "Mark a unit as never having moved (it stands on its square of the initial array), or as a promoted piece." },
    CommandHelp { name: "save", usage: "save FILE", what: "Write the whole session (position, marks, line, step, cages) to FILE, a small text format (one record a line). The file is replaced whole or not at all, and ends with an end record: load refuses a file cut short." },
    CommandHelp { name: "load", usage: "load FILE", what: "Replace the session by one saved with save; all of it loads, or nothing changes." },
    CommandHelp { name: "export", usage: "export pgn|fen [file] | export solutions pgn|fen FILE", what: "Print or write the line as a forward game (PGN) or the position as a FEN; or write every kept solution of the last solve, as PGN games or as the FEN each starts from." },
    CommandHelp { name: "cage", usage: "cage verify [all | all but SQ ... | SQ ...] [zone SQ,..] [depth N] [nodes N] | list | forget K | export FILE | import FILE", what: "User cages: verify the selected units of the current position as a cage (stored cages count as proven; nodes N sets the budget) and store it; stored cages make check and solve call positions containing them illegal. Export and import use the cage file format (one cage per line: board, zone=, frozen=, depth=, captures=); imported cages are re-verified, bad lines reported and skipped." },
    CommandHelp { name: "help", usage: "help [command]", what: "List the commands, or explain one." },
    CommandHelp { name: "quit", usage: "quit", what: "Leave (Ctrl-D does too)." },
];

/// The widest usage column of the command table; a longer usage gets a line of its own.
const USAGE_COLUMN: usize = 30;

/// `help` or `help <command>`, wrapped to the terminal's width (80 columns when there is no
/// terminal).
pub fn text(topic: &str) -> Result<String, String> {
    text_for_width(topic, textwrap::termwidth())
}

/// [`text`] for a given width.
pub fn text_for_width(topic: &str, width: usize) -> Result<String, String> {
    let width = width.max(40);
    if topic.is_empty() {
        let mut text = String::from("Commands (help <command> for more):\n");
        let indent = " ".repeat(USAGE_COLUMN + 3);
        for c in COMMANDS {
            let summary = first_sentence(c.what);
            let head = if c.usage.len() <= USAGE_COLUMN {
                format!("  {:<USAGE_COLUMN$} ", c.usage)
            } else {
                text.push_str(&textwrap::fill(
                    c.usage,
                    textwrap::Options::new(width)
                        .word_splitter(textwrap::WordSplitter::NoHyphenation)
                        .initial_indent("  ")
                        .subsequent_indent("    "),
                ));
                text.push('\n');
                indent.clone()
            };
            let options = textwrap::Options::new(width)
                .word_splitter(textwrap::WordSplitter::NoHyphenation)
                .initial_indent(&head)
                .subsequent_indent(&indent);
            text.push_str(&textwrap::fill(summary, options));
            text.push('\n');
        }
        text.push_str(&textwrap::fill(
            "Moves are written as in retro notation: a2-a3, Kf5xNe5, f4xg3ep, c7xNd8=R, 0-0.",
            textwrap::Options::new(width).word_splitter(textwrap::WordSplitter::NoHyphenation),
        ));
        return Ok(text);
    }
    COMMANDS
        .iter()
        .find(|c| c.name == topic)
        .map(|c| {
            let options = textwrap::Options::new(width)
                .word_splitter(textwrap::WordSplitter::NoHyphenation)
                .initial_indent("  ")
                .subsequent_indent("  ");
            format!(
                "{}\n{}",
                textwrap::fill(
                    c.usage,
                    textwrap::Options::new(width)
                        .word_splitter(textwrap::WordSplitter::NoHyphenation)
                ),
                textwrap::fill(c.what, options)
            )
        })
        .ok_or_else(|| format!("no command '{topic}' (type help)"))
}

/// The first sentence of a description, without its full stop: it ends at ". " before a capital
/// letter, so that "e.g. 'retract" stays whole.
fn first_sentence(what: &str) -> &str {
    let bytes = what.as_bytes();
    let end = (0..bytes.len().saturating_sub(2))
        .find(|&i| bytes[i] == b'.' && bytes[i + 1] == b' ' && bytes[i + 2].is_ascii_uppercase())
        .unwrap_or(what.len());
    what[..end].trim_end_matches('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_fits_the_width_and_keeps_abbreviations_whole() {
        for width in [60, 80, 120] {
            let mut topics = vec![""];
            topics.extend(COMMANDS.iter().map(|c| c.name));
            for topic in topics {
                let text = text_for_width(topic, width).expect("help");
                for line in text.lines() {
                    assert!(line.chars().count() <= width, "{width}: {line}");
                }
            }
        }
        let text = text_for_width("", 80).expect("help");
        assert!(text.contains("e.g. 'retract Kf5xNe5'"), "{text}");
        assert!(!text.contains("auto-\n"), "{text}");
        assert_eq!(
            first_sentence("Take back, e.g. a move. Then more."),
            "Take back, e.g. a move"
        );
    }
}
