//! Pawns of both colours locked on one file (issue 25, item 1, "pawns that must pass each
//! other"): the two pawns of a file that no account uses got by each other only if one left the
//! file, by a capture its side has to spare, or one was captured on it as a pawn, by a capture
//! of the other side landing there.
//!
//! # The argument
//!
//! Fix a combination of the ledger (see [`super`]): start files for every pawn of either side
//! on the board and for one pawn per promoted unit each side must have, and which pawn of each
//! passing pair left its file. Each side `C` then made at most `spare(C) = budget(C) - need(C)`
//! captures beyond the charges of its account (its pieces made the captures the pens prove, of
//! originals, never a pawn), and every other capture of `C` is one of its slots: one per unit of
//! charge, on the files its walk reaches.
//!
//! Let `g` be a file that neither side's account uses. The white pawn from `g` and the black
//! pawn from `g` are not on the board, and each capture of theirs is one of their side's spare
//! ones (it is beyond the account's charges). Two pawns of opposite colours on one file never
//! pass each other there: the white one stands below the black one as long as both are on it
//! (at the start, and each step needs the square in front empty). So neither promoted while the
//! other was still on the file as a pawn, and before the first of them left the board one of
//! them left the file, by a capture landing on a file beside `g` (one of its side's spare
//! captures, which then landed there), or the first of them to leave the board was captured, as
//! a pawn, on file `g` (en passant too: the capture lands on the file of its victim), by a slot
//! of the other side whose files include `g` or a spare capture of it. The pawns a side's walks
//! prove dead (they cannot promote within the spare: [`super::dead_pawns`]) need their own
//! captures too. (A file one of whose pawns is proven dead so is left out: that death may be
//! what let the other by, and counting it twice would ask two captures.) If for each way of
//! choosing, for every such file, how its pawns got by, one side's dead pawns cannot each be
//! given their own capture of the other side on a file they can have died on, the combination is
//! impossible; the ledger calls the position illegal when every combination is. With no capture
//! to spare on either side, the pawns of such a file never left it and one of them died there.
//!
//! # An example (taken back from a published problem, White's wrong last move g2-g3)
//!
//! `7k/3pp1pP/6PP/5pKp/7B/8/4PPPp/8 w`: the bishops of f1 and f8, hemmed in by pawns that
//! never moved, died at home to pieces. White's g6, h6 and h7 are its h-pawn and its c- and
//! d-pawns (eight captures, the eight left to its pawns); Black's h5 and h2 are its h-pawn
//! (which left the h-file and came back past the white h-pawn: two captures) and its c-pawn
//! (five), the seven left to Black's pawns. So the a- and b-pawns of both colours never left
//! their files, and one pawn of each file died there; but White's captures landed on the d- to
//! h-files and f8, Black's on the d- to h-files and f1.

use super::matches;

/// The most locked files weighed (each has four ways out); the others are left out, which only
/// allows more.
const MOST: usize = 4;

/// The files (a bit per file) that neither side's account uses, `used_white` and `used_black`
/// giving the start files each uses.
#[must_use]
pub(super) fn files(used_white: u8, used_black: u8) -> u8 {
    !(used_white | used_black)
}

/// The pawns of one side that died as pawns, each as its start file's bit and the files (a
/// bit per file) where it can have died, and the captures of the other side, each as the files
/// where it can have landed (`u8::MAX` for one of its captures to spare).
#[derive(Clone, Copy, Debug)]
pub(super) struct Deaths<'a> {
    /// The pawns proven dead, before the locked files add theirs.
    pub dead: &'a [(u8, u8)],
    /// The other side's captures that can have taken them.
    pub slots: &'a [u8],
}

/// One side's dead pawns and the other side's captures, as a choice for the locked files makes
/// them.
#[derive(Clone, Debug)]
struct Owned {
    dead: Vec<(u8, u8)>,
    slots: Vec<u8>,
}

impl Owned {
    fn of(d: Deaths<'_>) -> Owned {
        Owned {
            dead: d.dead.to_vec(),
            slots: d.slots.to_vec(),
        }
    }

    /// Whether the dead pawns can each be given their own capture.
    fn fits(&self) -> bool {
        matches(&self.dead, &self.slots)
    }
}

/// The files next to file `f`, a bit per file.
fn beside(f: u8) -> u8 {
    let left = if f > 0 { 1 << (f - 1) } else { 0 };
    let right = if f < 7 { 1 << (f + 1) } else { 0 };
    left | right
}

/// Whether some way of choosing, for each file of `locked`, how its two pawns got by (one died
/// on it, or one left it by one of its side's captures to spare) lets each side's dead pawns
/// be given their own captures of the other side.
#[must_use]
pub(super) fn fits(locked: u8, white: Deaths<'_>, black: Deaths<'_>) -> bool {
    let files: Vec<u8> = (0..8).filter(|f| locked & 1 << f != 0).take(MOST).collect();
    choose(&files, &mut Owned::of(white), &mut Owned::of(black))
}

/// Tries the four ways out of the first of `files`, then the rest.
fn choose(files: &[u8], white: &mut Owned, black: &mut Owned) -> bool {
    let Some((&f, rest)) = files.split_first() else {
        return white.fits() && black.fits();
    };
    let on = 1u8 << f;
    // One of the two died on the file, taken by a capture of the other side landing there.
    for white_died in [true, false] {
        let dead = if white_died { &mut *white } else { &mut *black };
        dead.dead.push((on, on));
        let ok = choose(rest, white, black);
        let dead = if white_died { &mut *white } else { &mut *black };
        dead.dead.pop();
        if ok {
            return true;
        }
    }
    // One of the two left it by a capture of its side to spare, landing beside it (White's
    // captures are those that take Black's dead pawns, and the other way round).
    for white_left in [true, false] {
        let captures = if white_left {
            &mut black.slots
        } else {
            &mut white.slots
        };
        let Some(i) = captures.iter().position(|&s| s == u8::MAX) else {
            continue;
        };
        captures[i] = beside(f);
        let ok = choose(rest, white, black);
        let captures = if white_left {
            &mut black.slots
        } else {
            &mut white.slots
        };
        captures[i] = u8::MAX;
        if ok {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_no_account_uses_lock() {
        assert_eq!(files(0b1111_1100, 0b0111_1110), 0b0000_0001);
        assert_eq!(files(0b1111_1111, 0), 0);
        assert_eq!(beside(0), 0b10);
        assert_eq!(beside(7), 0b0100_0000);
        assert_eq!(beside(3), 0b1_0100);
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
        // A capture to spare lets one of the a-pawns leave its file (onto the b-file)...
        let spare = [u8::MAX];
        assert!(fits(
            0b1,
            white,
            Deaths {
                dead: &none,
                slots: &spare
            }
        ));
        // ...but then it is spent there: it can take a dead pawn only on the b-file.
        let dead_on_h = [(1u8 << 7, 1u8 << 7)];
        assert!(!fits(
            0b1,
            white,
            Deaths {
                dead: &dead_on_h,
                slots: &spare
            }
        ));
        let dead_on_b = [(1u8 << 2, 1u8 << 1)];
        assert!(fits(
            0b1,
            white,
            Deaths {
                dead: &dead_on_b,
                slots: &spare
            }
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
