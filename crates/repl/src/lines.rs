//! Input read with size caps: batch lines, script lines and whole files (cage files).
//!
//! Input is read as bytes and decoded one line at a time, so a line that is not UTF-8 or too long
//! is an error for that line alone and the rest of the input goes on. No line keeps more than
//! [`MAX_LINE`] bytes in memory, and a file read whole is refused beyond [`MAX_FILE`]: memory stays
//! bounded whatever is piped in (`/dev/zero` included).

use std::{
    io::{self, BufRead, Read},
    path::Path,
};

use thiserror::Error;

use crate::output::CliError;

/// The longest line kept (64 KiB): far beyond any FEN or command, small enough to hold.
pub const MAX_LINE: usize = 64 * 1024;

/// The longest line skipped over (16 MiB): input with longer lines is not line text, and reading
/// stops there (as it would otherwise never stop on `/dev/zero`).
pub const MAX_SKIP: u64 = 16 * 1024 * 1024;

/// The largest file read whole (1 MiB): a cage file holds a few hundred short lines.
pub const MAX_FILE: u64 = 1024 * 1024;

/// The byte order mark of UTF-8.
const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

/// Why one line cannot be used; the lines after it still are.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum LineError {
    #[error("the line is not UTF-8 text")]
    NotUtf8,
    #[error("the line is longer than {MAX_LINE} bytes")]
    TooLong,
}

/// One line of input, numbered from 1, without its line ending.
pub struct Line {
    pub number: usize,
    pub text: Result<String, LineError>,
}

/// The lines of a reader, each decoded on its own.
pub struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    number: usize,
}

/// The lines of `reader`. An I/O error, or a line longer than [`MAX_SKIP`], ends the input with an
/// error (`Some(Err(..))`, then `None`).
pub fn lines<R: BufRead>(reader: R) -> Lines<R> {
    Lines {
        reader,
        buf: Vec::new(),
        number: 0,
    }
}

impl<R: BufRead> Lines<R> {
    /// Reads one line into `buf` (at most `MAX_LINE + 1` bytes of it); its full length, or `None`
    /// at the end of the input.
    fn read_line(&mut self) -> Result<Option<u64>, CliError> {
        self.buf.clear();
        let mut length = 0u64;
        let mut any = false;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            if chunk.is_empty() {
                return Ok(any.then_some(length));
            }
            any = true;
            let newline = chunk.iter().position(|&b| b == b'\n');
            let part = &chunk[..newline.unwrap_or(chunk.len())];
            let room = (MAX_LINE + 1).saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&part[..part.len().min(room)]);
            length += part.len() as u64;
            let used = newline.map_or(chunk.len(), |i| i + 1);
            self.reader.consume(used);
            if newline.is_some() {
                return Ok(Some(length));
            }
            if length > MAX_SKIP {
                return Err(CliError::BadInput(format!(
                    "line {} is longer than {} MiB: this is not line text; stopped reading",
                    self.number + 1,
                    MAX_SKIP >> 20
                )));
            }
        }
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<Line, CliError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.number == usize::MAX {
            return None;
        }
        let length = match self.read_line() {
            Ok(length) => length?,
            Err(err) => {
                // Nothing more is read after a fatal error.
                self.number = usize::MAX;
                return Some(Err(err));
            }
        };
        self.number += 1;
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        // A byte order mark some editors put at the start of a UTF-8 file is not text.
        if self.number == 1 && self.buf.starts_with(UTF8_BOM) {
            self.buf.drain(..UTF8_BOM.len());
        }
        let text = if length > MAX_LINE as u64 {
            Err(LineError::TooLong)
        } else {
            String::from_utf8(std::mem::take(&mut self.buf)).map_err(|_| LineError::NotUtf8)
        };
        Some(Ok(Line {
            number: self.number,
            text,
        }))
    }
}

/// Reads a whole text file of at most [`MAX_FILE`] bytes; `what` names it in errors.
pub fn read_text_file(path: &Path, what: &str) -> Result<String, String> {
    let file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read {what} {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {what} {}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(format!(
            "{what} {} is larger than {} MiB",
            path.display(),
            MAX_FILE >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("{what} {} is not UTF-8 text", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Vec<Result<String, LineError>> {
        lines(bytes)
            .map(|l| l.expect("no fatal error").text)
            .collect()
    }

    #[test]
    fn a_bad_line_spoils_only_itself() {
        let long = vec![b'a'; MAX_LINE + 1];
        let mut input = b"one\r\n\xff\xfe\n\n".to_vec();
        input.extend_from_slice(&long);
        input.extend_from_slice(b"\nlast");
        assert_eq!(
            read(&input),
            vec![
                Ok("one".to_owned()),
                Err(LineError::NotUtf8),
                Ok(String::new()),
                Err(LineError::TooLong),
                Ok("last".to_owned()),
            ]
        );
        assert_eq!(read(&vec![b'b'; MAX_LINE]), vec![Ok("b".repeat(MAX_LINE))]);
    }

    #[test]
    fn a_byte_order_mark_is_dropped_from_the_first_line_only() {
        assert_eq!(
            read(b"\xef\xbb\xbffen x\n\xef\xbb\xbfy"),
            vec![Ok("fen x".to_owned()), Ok("\u{feff}y".to_owned())]
        );
    }

    #[test]
    fn endless_lines_stop_the_input() {
        let zeros = io::BufReader::new(io::repeat(0));
        let mut it = lines(zeros);
        assert!(matches!(it.next(), Some(Err(CliError::BadInput(_)))));
        assert!(it.next().is_none());
    }
}
