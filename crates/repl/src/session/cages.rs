//! The `cage` commands: verify the selected units as a cage and store it, list, forget, export
//! and import the user's cages.

use std::{fmt::Write as _, path::Path, sync::atomic::AtomicBool};

use retrace_cage::{Cage, CageStore, LoadBudget};

use super::{files::shown, CageAction, CageClaim, Session};
use crate::output::one_line;

impl Session {
    /// `cage verify|list|forget|export|import ...`.
    pub(super) fn cage(
        &mut self,
        action: CageAction,
        cancel: &AtomicBool,
    ) -> Result<String, String> {
        match action {
            CageAction::Verify(claim) => self.cage_verify(&claim, cancel),
            CageAction::List => Ok(self.cage_list()),
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
                    return Err(format!("there is no cage number {n} (see cage list)"));
                }
                // Re-verified on the way back in: a cage that leaned on the forgotten one is
                // dropped too rather than kept unproven.
                let (store, dropped) = CageStore::load(&kept.join("\n"));
                self.cages = store;
                let mut text = format!("forgot cage {n}");
                if !dropped.is_empty() {
                    text.push_str(&format!(
                        "; {} other cage(s) no longer verify without it and were dropped",
                        dropped.len()
                    ));
                }
                Ok(text)
            }
            CageAction::Export(file) => {
                // The store's export has the one header line the format needs.
                let text = self.cages.export();
                self.write_file(&file, &text)?;
                Ok(format!(
                    "wrote {} cage(s) to {}",
                    self.cages.len(),
                    shown(&file)
                ))
            }
            CageAction::Import(file) => self.cage_import(&file, cancel),
        }
    }

    /// `cage verify`: the selected units of the current position as a cage, stored when proven.
    fn cage_verify(&mut self, claim: &CageClaim, cancel: &AtomicBool) -> Result<String, String> {
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
            return Err("a selected square is empty".into());
        }
        let mut cage_board = board.clone();
        for sq in board.occupied() & !selected {
            cage_board.discard_piece_at(sq);
        }
        let frozen = self.position().frozen() & selected;
        let cage = Cage::from_parts(cage_board, claim.zone, frozen, claim.depth)
            .map_err(|e| e.to_string())?;
        match self
            .cages
            .prove_cancellable(cage.clone(), &options, Some(cancel))
        {
            Ok(v) => Ok(format!(
                "verified in {} nodes and stored as cage {}: {cage}",
                v.nodes,
                self.cages.len()
            )),
            Err(err) => Err(err.to_string()),
        }
    }

    fn cage_list(&self) -> String {
        if self.cages.is_empty() {
            return "no cages stored (cage verify stores one)".into();
        }
        self.cages
            .cages()
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{:>3}. {c}", i + 1))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Imports a cage file: each cage re-verified, a bad line reported and skipped.
    fn cage_import(&mut self, file: &Path, cancel: &AtomicBool) -> Result<String, String> {
        let text = crate::lines::read_text_file(file, "cage file")?;
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
        let mut report = format!("imported {added} cage(s) from {}", shown(file));
        if duplicates > 0 {
            let _ = write!(
                report,
                " ({duplicates} already stored: {})",
                if duplicates == 1 {
                    "a duplicate, kept once"
                } else {
                    "duplicates, kept once"
                }
            );
        }
        for (line, err) in errors {
            let _ = write!(
                report,
                "\n  skipped line {line}: {}",
                one_line(&err.to_string())
            );
        }
        Ok(report)
    }
}
