//! The value of a retractor node, and how each chooser combines the values of its choices.

use super::kind::Pick;

/// What a node is worth to White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// White reaches the forward stipulation whatever the defence.
    Win,
    /// The defence stops White.
    Loss,
    /// No legal choice exists here: the position (or the retraction leading to it) is illegal.
    Illegal,
}

impl Pick {
    /// How much the chooser likes `o`: an illegal choice is never taken while a legal one exists.
    fn rank(self, o: Outcome) -> u8 {
        match (self, o) {
            (_, Outcome::Illegal) => 0,
            (Pick::Max, Outcome::Loss) | (Pick::Min, Outcome::Win) => 1,
            (Pick::Max, Outcome::Win) | (Pick::Min, Outcome::Loss) => 2,
        }
    }

    /// The better of two choices for this chooser.
    pub(crate) fn better(self, a: Outcome, b: Outcome) -> Outcome {
        if self.rank(b) > self.rank(a) {
            b
        } else {
            a
        }
    }

    /// Whether `o` cannot be improved on, so the other choices need no look.
    pub(crate) fn is_best(self, o: Outcome) -> bool {
        self.rank(o) == 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choosers_never_prefer_an_illegal_choice() {
        for pick in [Pick::Max, Pick::Min] {
            for o in [Outcome::Win, Outcome::Loss] {
                assert_eq!(pick.better(Outcome::Illegal, o), o);
                assert_eq!(pick.better(o, Outcome::Illegal), o);
            }
        }
        assert_eq!(Pick::Max.better(Outcome::Loss, Outcome::Win), Outcome::Win);
        assert_eq!(Pick::Min.better(Outcome::Win, Outcome::Loss), Outcome::Loss);
        assert!(Pick::Min.is_best(Outcome::Loss) && !Pick::Max.is_best(Outcome::Loss));
    }
}
