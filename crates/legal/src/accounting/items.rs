//! The pawns one side must account for, and what each costs in captures from each start file.

use shakmaty::{Bitboard, Color, File, Rank, Square};

pub(crate) use crate::pawn_items::{Cost, Item, Place};
use crate::{
    known::Known,
    pawns::advance,
    promotion::{demands, walked_cost, walls_walks, Walks, NONE, NO_WALK},
};

/// The pawns `color` must account for: its pawns on the board and one pawn per promoted unit it
/// must have ([`demands`]); `None` if they are more than eight (another rule says so). Computed
/// once per position ([`crate::pawn_items::ItemsMemo`]), and lent.
pub(crate) fn items<'k>(known: &'k Known<'_>, color: Color) -> Option<&'k [Item]> {
    known
        .items
        .0
        .get(color)
        .get_or_init(|| compute(known, color))
        .as_deref()
}

/// [`items`], computed.
fn compute(known: &Known<'_>, color: Color) -> Option<Vec<Item>> {
    let board = known.pos.board();
    let pawns = board.by_piece(color.pawn());
    let promoted = if known.promoted.get(color).total > 0 {
        demands(known.pos, known.statics, color)
    } else {
        Vec::new()
    };
    if pawns.count() + promoted.len() > 8 {
        return None;
    }
    let walks = walls_walks(color, known.statics, known.walks);
    let mut out: Vec<Item> = pawns
        .into_iter()
        .map(|sq| Item {
            place: Place::Board(sq),
            costs: std::array::from_fn(|g| board_cost(known, color, sq, g, &walks)),
        })
        .collect();
    out.extend(promoted.iter().map(|d| Item {
        place: Place::Promoted {
            units: d.units,
            squares: d.squares,
        },
        costs: std::array::from_fn(|g| promoted_cost(color, d.squares, g, &walks)),
    }));
    Some(out)
}

/// Orders `color`'s items for the accounts' enumeration: the pawns with the fewest start files
/// first (they prune the most), ties broken by what the colour-mirrored position has alike (files,
/// ranks counted from the side's own back rank), so that a position and its mirror are walked in
/// the same order and give up at their limits together.
pub(crate) fn sort_for_enumeration(color: Color, items: &mut [Item]) {
    items.sort_by_key(|item| order_key(color, item));
}

/// The key of [`sort_for_enumeration`].
fn order_key(color: Color, item: &Item) -> (usize, u8, u32, u32, u32) {
    let starts = item.costs.iter().filter(|c| c.base != NONE).count();
    match item.place {
        Place::Board(sq) => (
            starts,
            0,
            sq.file() as u32,
            color.relative_rank(sq.rank()) as u32,
            0,
        ),
        Place::Promoted { units, squares } => {
            let relative = if color.is_white() {
                squares
            } else {
                squares.flip_vertical()
            };
            (
                starts,
                1,
                relative.0.trailing_zeros(),
                relative.0.count_ones(),
                units.count() as u32,
            )
        }
    }
}

/// The cost of `color`'s pawn on `sq` from file `start`. On another file it left its start file
/// by its captures; on its own file, walls may have forced it round (then it left, too), or it
/// made two captures out and back, which needs two ranks of advance.
fn board_cost(known: &Known<'_>, color: Color, sq: Square, start: usize, walks: &Walks) -> Cost {
    let base = walked_cost(color, sq, start, known.statics, walks);
    let leave = if base == 0 {
        if advance(color, sq) >= 2 {
            2
        } else {
            NONE
        }
    } else {
        base
    };
    Cost { base, leave }
}

/// The cost of a pawn from file `start` that promoted on one of `squares`: the captures of its
/// walk there around the walls. Its `leave` counts only walks that were off the start file
/// *before* the promotion move: one that ends on its start file left it and came back (at least
/// two captures), one that promotes from its seventh rank on the start file by a capture left it
/// and came back before, and one that promotes from another file stood there first.
///
/// Why a promotion capture from the start file does not count as leaving: `leave` is charged to
/// the pawn of a pair of both colours on one file that must have left to let the other by (see
/// [`super`]). The other pawn of the pair is on the board or promoted, so it was a pawn on the file
/// until now or until its promotion, and started on this pawn's seventh rank. If this pawn was on
/// the file at every moment before its promotion move, it stood on its seventh rank there, which
/// the other pawn had left upwards by then, so they crossed while both stood on the file, which
/// pawns cannot do.
fn promoted_cost(color: Color, squares: Bitboard, start: usize, walks: &Walks) -> Cost {
    let mut cost = Cost {
        base: NONE,
        leave: NONE,
    };
    let from = &walks[start];
    let seventh = color.relative_rank(Rank::Seventh);
    for q in squares {
        let w = from[usize::from(q)];
        if w == NO_WALK {
            continue;
        }
        cost.base = cost.base.min(u32::from(w));
        let f = q.file() as usize;
        for pf in [f.wrapping_sub(1), f, f + 1] {
            if pf >= 8 {
                continue;
            }
            let p = from[usize::from(Square::from_coords(File::new(pf as u32), seventh))];
            if p == NO_WALK {
                continue;
            }
            let p = u32::from(p);
            let off = if pf == start { p.max(2) } else { p };
            cost.leave = cost.leave.min(off + u32::from(pf != f));
        }
    }
    // A walk's captures bound its leaving from below too (the table holds the fewest).
    if cost.leave != NONE {
        cost.leave = cost.leave.max(cost.base).max(1);
    }
    cost
}
