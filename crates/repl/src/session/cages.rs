//! The `cage` commands: verify the selected units as a cage and store it, list, forget, export
//! and import the user's cages.

use std::{path::Path, sync::atomic::AtomicBool};

use retrace_cage::{Cage, CageStore, LoadBudget};

use super::{CageAction, CageClaim, Session, SessionError};
use crate::output::reply::CageReply;

impl Session {
    /// `cage verify|list|forget|export|import ...`.
    pub(super) fn cage(
        &mut self,
        action: CageAction,
        cancel: &AtomicBool,
    ) -> Result<CageReply, SessionError> {
        match action {
            CageAction::Verify(claim) => self.cage_verify(&claim, cancel),
            CageAction::List => Ok(CageReply::List(self.cages.cages().to_vec())),
            CageAction::Forget(n) => {
                let kept: Vec<String> = self
                    .cages
                    .cages()
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i + 1 != n)
                    .map(|(_, c)| c.to_string())
                    .collect();
                if kept.len() == self.cages.len() {
                    return Err(SessionError::NoCage(n));
                }
                // Re-verified on the way back in: a cage that leaned on the forgotten one is
                // dropped too rather than kept unproven.
                let (store, dropped) = CageStore::load(&kept.join("\n"));
                self.cages = store;
                Ok(CageReply::Forgot {
                    number: n,
                    dropped: dropped.len(),
                })
            }
            CageAction::Export(file) => {
                // The store's export has the one header line the format needs.
                let text = self.cages.export();
                self.write_file(&file, &text)?;
                Ok(CageReply::Exported {
                    count: self.cages.len(),
                    file,
                })
            }
            CageAction::Import(file) => self.cage_import(&file, cancel),
        }
    }

    /// `cage verify`: the selected units of the current position as a cage, stored when proven.
    fn cage_verify(
        &mut self,
        claim: &CageClaim,
        cancel: &AtomicBool,
    ) -> Result<CageReply, SessionError> {
        let board = self.position().board().clone();
        let mut selected = board.occupied();
        let mut options = retrace_cage::VerifyOptions::default();
        if let Some(n) = claim.max_nodes {
            options.max_nodes = n;
        }
        let listed = claim.listed;
        if listed.any() {
            selected = if claim.except {
                selected & !listed
            } else {
                listed
            };
        }
        if !(listed & !board.occupied()).is_empty() {
            return Err(SessionError::EmptySquareSelected);
        }
        let mut cage_board = board.clone();
        for sq in board.occupied() & !selected {
            cage_board.discard_piece_at(sq);
        }
        let frozen = self.position().frozen() & selected;
        let cage = Cage::from_parts(cage_board, claim.zone, frozen, claim.depth)?;
        let v = self
            .cages
            .prove_cancellable(cage.clone(), &options, Some(cancel))?;
        Ok(CageReply::Verified {
            nodes: v.nodes,
            number: self.cages.len(),
            cage,
        })
    }

    /// Imports a cage file: each cage re-verified, a bad line reported and skipped.
    fn cage_import(&mut self, file: &Path, cancel: &AtomicBool) -> Result<CageReply, SessionError> {
        let text = crate::lines::read_text_file(file, "cage file").map_err(SessionError::Read)?;
        let budget = LoadBudget {
            cancel: Some(cancel),
            ..LoadBudget::default()
        };
        let (read, errors) = CageStore::load_within(&text, &budget);
        let duplicates = read
            .cages()
            .iter()
            .filter(|c| self.cages.cages().contains(c))
            .count();
        let before = self.cages.len();
        let merged = format!("{}\n{text}", self.cages.export());
        // The cages of both proven above or before: each is not verified again.
        let (store, _) = CageStore::load_within(&merged, &budget);
        let added = store.len().saturating_sub(before);
        self.cages = store;
        Ok(CageReply::Imported {
            added,
            file: file.to_path_buf(),
            duplicates,
            skipped: errors,
        })
    }
}
