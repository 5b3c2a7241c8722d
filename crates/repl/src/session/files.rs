//! The commands that write and read files: `save`, `load` and `export`. Every write goes through
//! [`crate::files::write_atomic`] (whole or not at all) and a failure is counted, so a script
//! that lost a file ends with exit status 1.

use std::{fmt::Write as _, path::Path, sync::atomic::AtomicBool};

use retrace_search::{to_pgn, to_pgn_tagged};

use super::{Export, Format, Session, SessionError};
use crate::lines::MAX_FILE;
use crate::output::reply::FileReply;

impl Session {
    /// `export pgn|fen [FILE]` and `export solutions pgn|fen FILE`.
    pub(super) fn export(&mut self, export: &Export) -> Result<FileReply, SessionError> {
        let (format, file) = match export {
            Export::Solutions(format, file) => return self.export_solutions(*format, file),
            Export::Line(format, file) => (format, file),
        };
        let content = match format {
            Format::Fen => format!("{}\n", self.position().fen()),
            Format::Pgn => {
                let start = &self.line[0].pos;
                to_pgn(start, &self.taken())?
            }
        };
        let Some(file) = file else {
            return Ok(FileReply::Printed(content));
        };
        self.write_file(file, &content)?;
        Ok(FileReply::Wrote(file.clone()))
    }

    /// `save FILE`: the whole session in the format of [`super::persist`].
    pub(super) fn save(&mut self, file: &Path) -> Result<FileReply, SessionError> {
        let text = self.to_session_text();
        // `save` never writes what `load` refuses.
        if text.len() as u64 > MAX_FILE {
            self.failed_writes += 1;
            return Err(SessionError::SessionTooLarge {
                bytes: text.len(),
                file: file.to_path_buf(),
            });
        }
        self.write_file(file, &text)?;
        Ok(FileReply::Saved(file.to_path_buf()))
    }

    /// Writes `text` to `file` whole or not at all, counting a failure.
    pub(super) fn write_file(&mut self, file: &Path, text: &str) -> Result<(), SessionError> {
        crate::files::write_atomic(file, text).map_err(|error| {
            self.failed_writes += 1;
            SessionError::Write(error)
        })
    }

    /// How many writes of files failed in this session (a script then ends with exit status 1).
    #[must_use]
    pub fn failed_writes(&self) -> u32 {
        self.failed_writes
    }

    /// `load FILE`: a session saved by `save`; all of it, or nothing changes.
    pub(super) fn load(
        &mut self,
        file: &Path,
        cancel: &AtomicBool,
    ) -> Result<FileReply, SessionError> {
        let text =
            crate::lines::read_text_file(file, "session file").map_err(SessionError::Read)?;
        self.load_session_text_within(&text, Some(cancel))?;
        Ok(FileReply::Loaded {
            file: file.to_path_buf(),
            board: self.board(),
        })
    }

    /// `export solutions pgn|fen FILE`: every kept solution of the last solve, as PGN games
    /// (each from the position it starts in, forward to the solve's position, numbered by
    /// round) or as the FEN of the position each starts in, one a line.
    fn export_solutions(&mut self, format: Format, file: &Path) -> Result<FileReply, SessionError> {
        let found = self.found().ok_or(SessionError::NoSolve)?;
        let mut content = String::new();
        for (i, line) in found.lines.iter().enumerate() {
            match format {
                Format::Pgn => {
                    let game =
                        to_pgn_tagged(&found.pos, line, "Retrace solution", &(i + 1).to_string())
                            .map_err(|source| SessionError::SolutionPgn {
                            number: i + 1,
                            source,
                        })?;
                    content.push_str(&game);
                    content.push('\n');
                }
                Format::Fen => {
                    let start = line
                        .iter()
                        .fold(found.pos.clone(), |pos, &r| pos.retract(r));
                    let _ = writeln!(content, "{}", start.fen());
                }
            }
        }
        let kept = found.lines.len() as u64;
        let count = found.count;
        self.write_file(file, &content)?;
        Ok(FileReply::WroteSolutions {
            kept,
            count,
            file: file.to_path_buf(),
        })
    }
}
