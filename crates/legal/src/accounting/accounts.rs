//! The assignments of one side's pawns to start files within its capture budget, reduced to what
//! the other side's pawns can meet: on each file where pawns of both sides can have stayed, which
//! pawn of this side stayed there, how high it went and what leaving would cost it more.

use shakmaty::Color;

use super::items::Item;
use crate::promotion::NONE;

/// The most search nodes one side's enumeration may visit; beyond it the rule gives up.
const NODE_LIMIT: u32 = 4096;

/// The most distinct accounts kept per side; beyond it the rule gives up.
const ACCOUNT_LIMIT: usize = 64;

/// A pawn of an account that stayed on its start file, at no capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stayer {
    /// The index of the pawn in the side's items.
    pub item: u8,
    /// Its [`Item::height`].
    pub height: i8,
    /// The captures leaving the file would cost it more ([`NONE`] if it cannot).
    pub extra: u32,
}

/// One assignment of a side's pawns to start files, cheapest of those that look alike to the other
/// side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Account {
    /// The captures of the assignment (each pawn at its `base` cost).
    pub cost: u32,
    /// Per file of `files`, the pawn that started there if it stayed there at no capture.
    pub stayers: [Option<Stayer>; 8],
}

/// The accounts of `color`'s `items` that cost at most `budget`, with `stayers` kept only on the
/// files of the mask `files` (the others look alike to the other side); `None` if the
/// enumeration would exceed its limits.
pub(crate) fn accounts(
    color: Color,
    items: &[Item],
    files: u8,
    budget: u32,
) -> Option<Vec<Account>> {
    let mut walk = Walk {
        color,
        items,
        files,
        budget,
        nodes: 0,
        out: Vec::new(),
    };
    let start = Account {
        cost: 0,
        stayers: [None; 8],
    };
    walk.visit(0, 0, start).then_some(walk.out)
}

/// The state of the enumeration of [`accounts`].
struct Walk<'a> {
    color: Color,
    items: &'a [Item],
    files: u8,
    budget: u32,
    nodes: u32,
    out: Vec<Account>,
}

impl Walk<'_> {
    /// Assigns the items from `k` on to the files not in `used`; false if a limit was exceeded.
    fn visit(&mut self, k: usize, used: u8, so_far: Account) -> bool {
        self.nodes += 1;
        if self.nodes > NODE_LIMIT {
            return false;
        }
        let Some(item) = self.items.get(k) else {
            return self.keep(so_far);
        };
        for (g, cost) in item.costs.iter().enumerate() {
            if used & 1 << g != 0 || cost.base == NONE || so_far.cost + cost.base > self.budget {
                continue;
            }
            let mut next = so_far;
            next.cost += cost.base;
            if cost.base == 0 && self.files & 1 << g != 0 {
                next.stayers[g] = Some(Stayer {
                    item: k as u8,
                    height: item.height(self.color),
                    extra: if cost.leave == NONE {
                        NONE
                    } else {
                        cost.leave - cost.base
                    },
                });
            }
            if !self.visit(k + 1, used | 1 << g, next) {
                return false;
            }
        }
        true
    }

    /// Keeps `account` unless one that looks alike costs no more; false past the limit.
    fn keep(&mut self, account: Account) -> bool {
        let alike = |a: &Account| {
            a.stayers
                .iter()
                .zip(account.stayers.iter())
                .all(|(x, y)| x.map(|s| (s.height, s.extra)) == y.map(|s| (s.height, s.extra)))
        };
        if let Some(old) = self.out.iter_mut().find(|a| alike(a)) {
            if account.cost < old.cost {
                *old = account;
            }
            return true;
        }
        self.out.push(account);
        self.out.len() <= ACCOUNT_LIMIT
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::*;
    use crate::accounting::items::{Cost, Place};

    fn item(sq: Square, costs: [u32; 8]) -> Item {
        Item {
            place: Place::Board(sq),
            costs: costs.map(|base| Cost {
                base,
                leave: if base == 0 { 2 } else { base },
            }),
        }
    }

    #[test]
    fn accounts_keep_the_cheapest_of_those_alike() {
        // Two pawns that can each stay on its own file or swap files at one capture each.
        let items = [
            item(Square::A4, [0, 1, NONE, NONE, NONE, NONE, NONE, NONE]),
            item(Square::B4, [1, 0, NONE, NONE, NONE, NONE, NONE, NONE]),
        ];
        let all = accounts(Color::White, &items, 0b11, 2).expect("small");
        assert_eq!(all.len(), 2);
        let stay = all.iter().find(|a| a.cost == 0).expect("both stay");
        assert_eq!(stay.stayers[0].map(|s| (s.item, s.extra)), Some((0, 2)));
        assert!(all.iter().any(|a| a.cost == 2 && a.stayers == [None; 8]));
        // Within no capture only the stayers are left; files outside the mask are not told apart.
        let cheap = accounts(Color::White, &items, 0, 1).expect("small");
        assert_eq!(cheap.len(), 1);
        assert_eq!(cheap[0].cost, 0);
    }

    #[test]
    fn accounts_give_up_past_their_limits() {
        // Eight pawns that can each have come from any file: 8! assignments, too many nodes.
        let items: Vec<Item> = (0..8)
            .map(|f| {
                item(
                    Square::from_coords(shakmaty::File::new(f), shakmaty::Rank::Seventh),
                    [0; 8],
                )
            })
            .collect();
        assert_eq!(accounts(Color::White, &items, 0xff, 0), None);
    }
}
