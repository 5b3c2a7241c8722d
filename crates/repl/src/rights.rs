//! `rights`: the castling and en passant rights of a board and side to move, and the sets of
//! castling rights that may be kept together (partial retro analysis), as
//! [`retrace_search::rights`] judges them.

use std::{
    process::ExitCode,
    sync::{atomic::AtomicBool, Arc},
};

use retrace_cage::CageStore;
use retrace_search::rights::{rights, Rights, RightsParams};
use retrace_unmove::RetroPosition;

use crate::{cli::PositionArgs, interrupt::Interrupt, output::CliError};

/// The FEN with its castling and en passant fields replaced by `-` (they are what is asked).
#[must_use]
pub fn without_rights(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    for i in [2, 3] {
        if let Some(field) = fields.get_mut(i) {
            *field = "-";
        }
    }
    fields.join(" ")
}

/// `retrace rights FEN`: one position, or one a line from standard input with FEN `-`.
pub fn run(
    args: &PositionArgs,
    params: &RightsParams,
    cages: &CageStore,
    interrupt: &Interrupt,
) -> Result<ExitCode, CliError> {
    let answer = |fen: &str| {
        args.setup(&without_rights(fen))
            .and_then(|setup| crate::output::rights(&rights(&setup.pos, params, Some(cages))))
    };
    if args.fen != "-" {
        answer(&args.fen)?.print(args.json)?;
        return Ok(interrupt.status());
    }
    crate::batch::run(args.json, args.jobs(), interrupt, answer)
}

/// The REPL's `rights`: the verdicts on the current position without its castling rights and
/// en passant square (its other marks kept), `None` when the board does not set up without
/// them; `cancel` (Ctrl-C) stops it after the search running.
#[must_use]
pub fn repl(pos: &RetroPosition, cages: &CageStore, cancel: &Arc<AtomicBool>) -> Option<Rights> {
    let fen = without_rights(&pos.fen());
    let mut base = RetroPosition::from_fen(&fen).ok()?;
    let rights_units = retrace_search::rights::CastlingRight::ALL
        .iter()
        .filter(|r| pos.castling_rights().intersects(r.squares()))
        .fold(shakmaty::Bitboard::EMPTY, |acc, r| acc | r.squares());
    for square in pos.frozen() & !rights_units {
        let _ = base.mark_frozen(square);
    }
    for square in pos.promoted() {
        let _ = base.mark_promoted(square);
    }
    let params = RightsParams {
        cancel: Some(Arc::clone(cancel)),
        ..RightsParams::default()
    };
    Some(rights(&base, &params, Some(cages)))
}
