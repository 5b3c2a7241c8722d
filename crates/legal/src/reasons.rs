//! Where the rules put what they find: every reason with its sentence, for an explanation, or only
//! whether there is one, for a search that asks yes or no at every node.
//!
//! A rule hands its sentence over as a closure ([`Reasons::add`]): the text is made only when the
//! reason is kept for showing. A verdict-only sink keeps the first reason without text, and says
//! it is [`settled`](Reasons::settled), so that the analysis skips the rules after it.

use std::ops::{Deref, DerefMut};

use shakmaty::Bitboard;

use crate::types::{Reason, ReasonCode};

/// The reasons found so far, and whether all of them or only the verdict is wanted.
#[derive(Debug, Default)]
pub(crate) struct Reasons {
    list: Vec<Reason>,
    /// Only the verdict is wanted: the first reason settles it, and no text is made.
    verdict_only: bool,
}

impl Reasons {
    /// A sink that keeps every reason with its sentence.
    #[must_use]
    pub(crate) fn explaining() -> Reasons {
        Reasons::default()
    }

    /// A sink that keeps only the first reason, without its sentence or squares.
    #[must_use]
    pub(crate) fn verdict_only() -> Reasons {
        Reasons {
            list: Vec::new(),
            verdict_only: true,
        }
    }

    /// Adds a reason with `code` about `squares`; `message` makes its sentence, and is called only
    /// when the reason is kept for showing.
    pub(crate) fn add(
        &mut self,
        code: ReasonCode,
        squares: Bitboard,
        message: impl FnOnce() -> String,
    ) {
        if !self.verdict_only {
            self.list.push(Reason::new(code, message(), squares));
        } else if self.list.is_empty() {
            self.list.push(Reason {
                code,
                message: String::new(),
                squares: Vec::new(),
            });
        }
    }

    /// Whether the analysis may stop here: only the verdict is wanted, and it is known.
    #[must_use]
    pub(crate) fn settled(&self) -> bool {
        self.verdict_only && !self.list.is_empty()
    }

    /// The reasons found.
    #[must_use]
    pub(crate) fn into_vec(self) -> Vec<Reason> {
        self.list
    }
}

/// The reasons as a list: rules that build a whole [`Reason`] push it as they would on a `Vec`
/// (its text is then made in either mode).
impl Deref for Reasons {
    type Target = Vec<Reason>;

    fn deref(&self) -> &Vec<Reason> {
        &self.list
    }
}

impl DerefMut for Reasons {
    fn deref_mut(&mut self) -> &mut Vec<Reason> {
        &mut self.list
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::*;

    #[test]
    fn a_verdict_keeps_the_first_reason_and_makes_no_text() {
        let squares = Bitboard::from_square(Square::E1);
        let mut verdict = Reasons::verdict_only();
        assert!(!verdict.settled());
        verdict.add(ReasonCode::KingsAdjacent, squares, || {
            unreachable!("no text for a verdict")
        });
        verdict.add(ReasonCode::TooManyUnits, squares, || {
            unreachable!("no text for a verdict")
        });
        assert!(verdict.settled());
        let kept = verdict.into_vec();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].code, ReasonCode::KingsAdjacent);

        let mut all = Reasons::explaining();
        all.add(ReasonCode::KingsAdjacent, squares, || "one".into());
        all.add(ReasonCode::TooManyUnits, squares, || "two".into());
        assert!(!all.settled());
        let kept = all.into_vec();
        assert_eq!(kept.len(), 2);
        assert_eq!(
            (kept[1].message.as_str(), kept[1].squares.as_slice()),
            ("two", &[Square::E1][..])
        );
    }
}
