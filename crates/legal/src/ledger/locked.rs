//! Pawns of both colours locked on one file (issue 25, item 1, "pawns that must pass each
//! other"): when neither side has a capture to spare, the two pawns of a file that no account
//! uses never left it, so one of them was captured on it as a pawn, and a capture of the other
//! side must have landed there.
//!
//! # The argument
//!
//! Fix a combination of the ledger (see [`super`]): start files for every pawn of either side
//! on the board and for one pawn per promoted unit each side must have, and which pawn of each
//! passing pair left its file. Each side `C` then made at most `spare(C) = budget(C) - need(C)`
//! captures beyond the charges of its account (its pieces made only the captures the pens
//! prove, of originals, never a pawn), and every other capture of `C` is one of its slots: one
//! per unit of charge, on the files its walk reaches.
//!
//! Let both spares be 0 and `g` a file that neither side's account uses. The white pawn from
//! `g` and the black pawn from `g` are not on the board, and each made no capture (any capture
//! of theirs would be beyond the account's charges), so neither ever left file `g`. Two pawns of
//! opposite colours on one file never pass each other there: the white one stands below the
//! black one as long as both are on it (at the start, and each step needs the square in front
//! empty). So neither promoted while the other was still on the file as a pawn, and the first of
//! them to leave the board was captured, as a pawn, on file `g` (en passant too: the capture
//! lands on the file of its victim). That capture took a unit of its side's victim, so it is a
//! slot of the other side whose files include `g`; the pawns a side's walks prove dead (they
//! cannot promote within the spare: [`super::dead_pawns`]) need their own slots too. (A file
//! one of whose pawns is proven dead so, on its file with no spare, is left out: that death
//! already lets the other pawn by, and counting it twice would ask two captures.) If for
//! each way of choosing, for every such file, which of its two pawns died there, one side's
//! dead pawns cannot each be given their own slot of the other side on a file they can have
//! died on, the combination is impossible; the ledger calls the position illegal when every
//! combination is.
//!
//! # An example (taken back from a published problem, White's wrong last move g2-g3)
//!
//! `7k/3pp1pP/6PP/5pKp/7B/8/4PPPp/8 w`: the bishops of f1 and f8, hemmed in by pawns that
//! never moved, died at home to pieces. White's g6, h6 and h7 are its h-pawn and its c- and
//! d-pawns (eight captures, the eight left to its pawns); Black's h5 and h2 are its h-pawn
//! (which left the h-file and came back past the white h-pawn: two captures) and its c-pawn
//! (five), the seven left to Black's pawns. So the a- and b-pawns of both colours never left
//! their files, and one pawn of each file died there; but White's captures landed on the c- to
//! h-files and f8, Black's on the c- to h-files and f1.

use super::matches;

/// The files (a bit per file) that neither side's account uses, `used_white` and `used_black`
/// giving the start files each uses, when neither side has a capture to spare; else none.
#[must_use]
pub(super) fn files(used_white: u8, used_black: u8, spare_white: u32, spare_black: u32) -> u8 {
    if spare_white == 0 && spare_black == 0 {
        !(used_white | used_black)
    } else {
        0
    }
}

/// The pawns of one side that died as pawns, each as its start file's bit and the files (a
/// bit per file) where it can have died, and the captures of the other side, each as the files
/// where it can have landed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Deaths<'a> {
    /// The pawns proven dead, before the locked files add theirs.
    pub dead: &'a [(u8, u8)],
    /// The other side's captures that can have taken them.
    pub slots: &'a [u8],
}

/// Whether some way of choosing, for each file of `locked`, which of its two pawns died on it
/// lets each side's dead pawns be given their own captures of the other side.
#[must_use]
pub(super) fn fits(locked: u8, white: Deaths<'_>, black: Deaths<'_>) -> bool {
    let files: Vec<u8> = (0..8).filter(|f| locked & 1 << f != 0).collect();
    let with = |d: Deaths<'_>, chosen: u8| -> Vec<(u8, u8)> {
        let mut all = d.dead.to_vec();
        all.extend(
            files
                .iter()
                .filter(|&&f| chosen & 1 << f != 0)
                .map(|&f| (1u8 << f, 1u8 << f)),
        );
        all
    };
    (0u32..1 << files.len()).any(|choice| {
        // Bit `i` of `choice` set: the white pawn of the `i`-th locked file died there.
        let whites = files
            .iter()
            .enumerate()
            .filter(|(i, _)| choice & 1 << i != 0)
            .fold(0u8, |m, (_, &f)| m | 1 << f);
        let blacks = locked & !whites;
        matches(&with(white, whites), white.slots) && matches(&with(black, blacks), black.slots)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_no_account_uses_lock_and_only_without_spare_captures() {
        assert_eq!(files(0b1111_1100, 0b0111_1110, 0, 0), 0b0000_0001);
        assert_eq!(files(0b1111_1100, 0b0111_1110, 1, 0), 0);
        assert_eq!(files(0b1111_1100, 0b0111_1110, 0, 2), 0);
    }

    #[test]
    fn one_pawn_of_a_locked_file_needs_a_capture_there() {
        let none: [(u8, u8); 0] = [];
        // Captures of both sides land only on the c- to h-files: the a-file cannot be settled.
        let far = [0b1111_1100u8];
        let white = Deaths {
            dead: &none,
            slots: &far,
        };
        let black = Deaths {
            dead: &none,
            slots: &far,
        };
        assert!(!fits(0b1, white, black));
        // A black capture that can land on the a-file takes the white a-pawn.
        let near = [0b1u8];
        assert!(fits(
            0b1,
            Deaths {
                dead: &none,
                slots: &near
            },
            black
        ));
        // A white capture there takes the black one instead.
        assert!(fits(
            0b1,
            white,
            Deaths {
                dead: &none,
                slots: &near
            }
        ));
        // Two locked files need two captures: one on each.
        assert!(!fits(
            0b11,
            Deaths {
                dead: &none,
                slots: &near
            },
            black
        ));
        let two = [0b1u8, 0b10];
        assert!(fits(
            0b11,
            Deaths {
                dead: &none,
                slots: &two
            },
            black
        ));
        // A pawn the walls already prove dead keeps its own capture.
        let proven = [(0b100u8, 0b1u8)];
        assert!(!fits(
            0b1,
            Deaths {
                dead: &proven,
                slots: &near
            },
            black
        ));
    }
}
