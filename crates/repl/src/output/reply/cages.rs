//! What the `cage` commands did, and the text the session shows for it.

use std::{fmt::Write as _, path::PathBuf};

use retrace_cage::{Cage, CageError};

use crate::output::shown::{one_line, shown_path};

/// What a `cage` command did.
pub enum CageReply {
    /// `cage verify`: the cage proven in `nodes` nodes and stored as cage `number`.
    Verified {
        nodes: u64,
        number: usize,
        cage: Cage,
    },
    /// `cage list`: the cages stored, in order.
    List(Vec<Cage>),
    /// `cage forget N`: cage `number` forgotten, and how many others were dropped with it.
    Forgot { number: usize, dropped: usize },
    /// `cage export FILE`: `count` cages written.
    Exported { count: usize, file: PathBuf },
    /// `cage import FILE`: `added` cages stored, `duplicates` already stored, and each line
    /// skipped with its error.
    Imported {
        added: usize,
        file: PathBuf,
        duplicates: usize,
        skipped: Vec<(usize, CageError)>,
    },
}

impl CageReply {
    /// The text the session shows for the reply.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            CageReply::Verified {
                nodes,
                number,
                cage,
            } => format!("verified in {nodes} nodes and stored as cage {number}: {cage}"),
            CageReply::List(cages) if cages.is_empty() => {
                "no cages stored (cage verify stores one)".into()
            }
            CageReply::List(cages) => cages
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{:>3}. {c}", i + 1))
                .collect::<Vec<_>>()
                .join("\n"),
            CageReply::Forgot { number, dropped } => {
                let mut text = format!("forgot cage {number}");
                if *dropped > 0 {
                    let _ = write!(
                        text,
                        "; {dropped} other cage(s) no longer verify without it and were dropped"
                    );
                }
                text
            }
            CageReply::Exported { count, file } => {
                format!("wrote {count} cage(s) to {}", shown_path(file))
            }
            CageReply::Imported {
                added,
                file,
                duplicates,
                skipped,
            } => imported(*added, file, *duplicates, skipped),
        }
    }
}

/// `imported 2 cage(s) from FILE`, the duplicates, and each line skipped with why.
fn imported(
    added: usize,
    file: &std::path::Path,
    duplicates: usize,
    skipped: &[(usize, CageError)],
) -> String {
    let mut text = format!("imported {added} cage(s) from {}", shown_path(file));
    if duplicates > 0 {
        let _ = write!(
            text,
            " ({duplicates} already stored: {})",
            if duplicates == 1 {
                "a duplicate, kept once"
            } else {
                "duplicates, kept once"
            }
        );
    }
    for (line, err) in skipped {
        let _ = write!(
            text,
            "\n  skipped line {line}: {}",
            one_line(&err.to_string())
        );
    }
    text
}
