//! What `export`, `save` and `load` did, and the text the session shows for it.

use std::path::PathBuf;

use retrace_legal::text::plural;

use crate::output::{shown::shown_path, view::BoardView};

/// What a command that writes or reads a file did.
pub enum FileReply {
    /// `export pgn|fen` without a file: the PGN or the FEN itself.
    Printed(String),
    /// `export pgn|fen FILE`: the file written.
    Wrote(PathBuf),
    /// `export solutions pgn|fen FILE`: `kept` solutions written, of `count` found.
    WroteSolutions {
        kept: u64,
        count: u64,
        file: PathBuf,
    },
    /// `save FILE`.
    Saved(PathBuf),
    /// `load FILE`, and the board of the session loaded.
    Loaded { file: PathBuf, board: BoardView },
}

impl FileReply {
    /// The text the session shows for the reply.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            FileReply::Printed(content) => content.trim_end().to_owned(),
            FileReply::Wrote(file) => format!("wrote {}", shown_path(file)),
            FileReply::WroteSolutions { kept, count, file } => {
                let mut text = format!(
                    "wrote {kept} solution{} to {}",
                    plural(*kept),
                    shown_path(file)
                );
                if count > kept {
                    text.push_str(&format!(
                        " ({} more were counted, not kept: solve with a narrower question)",
                        count - kept
                    ));
                }
                text
            }
            FileReply::Saved(file) => format!("saved the session to {}", shown_path(file)),
            FileReply::Loaded { file, board } => format!(
                "loaded the session from {}\n{}",
                shown_path(file),
                board.text()
            ),
        }
    }
}
