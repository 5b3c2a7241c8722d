//! The reverse-move generator.
//!
//! Legality of a retraction comes down to one question: in the predecessor, is the king of the side
//! to move (in the current position) attacked? The uncaptured unit belongs to that side, so it can
//! only shield its king: every uncapture choice on one arrival square is legal or illegal together.
//! The generator therefore decides each (unit, origin, uncapture or not) once and emits the
//! uncapture choices as a group, which also lets perft count them without generating them.
//!
//! Ordinary retractions run on precomputed masks: the squares from which a unit would give check,
//! the units whose departure would uncover a slider, and, when the last move gave check, the lines
//! on which the retracting unit must now block the other checkers. Only en passant, castling and
//! the forced double step take the exact path, which builds the predecessor board and asks for
//! attackers. Debug builds check every mask against that exact path.

use shakmaty::{attacks, Bitboard, Board, CastlingSide, Color, Move, Piece, Rank, Role, Square};

use crate::{position::pawn_forward, Retraction, RetroPosition};

/// Units that may reappear on a square where a pawn can stand.
const UNCAPTURE_ANY: &[Role] = &[
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];
/// Units that may reappear on the first or last rank.
const UNCAPTURE_PIECE: &[Role] = &[Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// Where generated retractions go.
pub(crate) trait Sink {
    fn push(&mut self, m: Move);
    /// `m` is a `Move::Normal` without capture; add it once for every role in `roles`.
    fn push_uncaptures(&mut self, m: Move, roles: &'static [Role]);

    /// `template` is a `Move::Normal` without capture whose `from` is a placeholder: add it from
    /// every square of `plain`, and with every uncapture of `roles` from every square of `capture`.
    #[inline]
    fn push_group(
        &mut self,
        template: Move,
        plain: Bitboard,
        capture: Bitboard,
        roles: &'static [Role],
    ) {
        if let Move::Normal {
            role,
            to,
            promotion,
            ..
        } = template
        {
            for from in plain {
                self.push(Move::Normal {
                    role,
                    from,
                    capture: None,
                    to,
                    promotion,
                });
            }
            for from in capture {
                self.push_uncaptures(
                    Move::Normal {
                        role,
                        from,
                        capture: None,
                        to,
                        promotion,
                    },
                    roles,
                );
            }
        }
    }
}

impl Sink for Vec<Retraction> {
    #[inline]
    fn push(&mut self, m: Move) {
        Vec::push(self, Retraction::new_unchecked(m));
    }

    #[inline]
    fn push_uncaptures(&mut self, m: Move, roles: &'static [Role]) {
        if let Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } = m
        {
            for &captured in roles {
                Vec::push(
                    self,
                    Retraction::new_unchecked(Move::Normal {
                        role,
                        from,
                        capture: Some(captured),
                        to,
                        promotion,
                    }),
                );
            }
        }
    }
}

/// Counts retractions without building them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline]
    fn push_uncaptures(&mut self, _: Move, roles: &'static [Role]) {
        self.0 += roles.len() as u64;
    }

    #[inline]
    fn push_group(&mut self, _: Move, plain: Bitboard, capture: Bitboard, roles: &'static [Role]) {
        self.0 += plain.count() as u64 + (capture.count() * roles.len()) as u64;
    }
}

/// A slider of the retracting side that one unit of its own shields from the enemy king.
#[derive(Clone, Copy)]
struct Discovery {
    blocker: Square,
    /// Squares strictly between the enemy king and the slider.
    line: Bitboard,
}

/// What every retraction of one node needs to know.
struct Context {
    us: Color,
    them: Color,
    occupied: Bitboard,
    empty: Bitboard,
    /// The king of the side to move, which must not be attacked in the predecessor.
    their_king: Square,
    /// Units of the retracting side attacking the enemy king now (the last move gave check).
    checkers: Bitboard,
    /// The checkers that are sliders.
    slider_checkers: Bitboard,
    may_uncapture: bool,
    rook_rays: Bitboard,
    bishop_rays: Bitboard,
    discoveries: [Option<Discovery>; 8],
}

impl Context {
    fn new(pos: &RetroPosition) -> Context {
        let board = pos.board();
        let us = pos.retracting();
        let them = us.other();
        let occupied = board.occupied();
        let their_king = pos.king_of(them);
        let checkers = board.attacks_to(their_king, us, occupied);
        let ours = board.by_color(us);
        let mut discoveries = [None; 8];
        let snipers = (attacks::rook_attacks(their_king, Bitboard::EMPTY)
            & board.rooks_and_queens()
            | attacks::bishop_attacks(their_king, Bitboard::EMPTY) & board.bishops_and_queens())
            & ours;
        let mut n = 0;
        for sniper in snipers {
            let line = attacks::between(their_king, sniper);
            let blockers = line & occupied;
            if let Some(blocker) = blockers.single_square() {
                if ours.contains(blocker) {
                    discoveries[n] = Some(Discovery { blocker, line });
                    n += 1;
                }
            }
        }
        Context {
            us,
            them,
            occupied,
            empty: !occupied,
            their_king,
            checkers,
            slider_checkers: checkers & board.sliders(),
            may_uncapture: pos.uncaptures_allowed(us),
            rook_rays: attacks::rook_attacks(their_king, occupied),
            bishop_rays: attacks::bishop_attacks(their_king, occupied),
            discoveries,
        }
    }

    /// Origins from which a unit of `role` (in the predecessor) would attack the enemy king, with
    /// the unit gone from `to` (`vacated`) or `to` refilled by an uncaptured unit.
    #[inline]
    fn check_origins(&self, role: Role, to: Square, vacated: bool) -> Bitboard {
        let k = self.their_king;
        match role {
            Role::Pawn => attacks::pawn_attacks(self.them, k),
            Role::Knight => attacks::knight_attacks(k),
            Role::King => attacks::king_attacks(k),
            Role::Bishop => self.bishop_origins(to, vacated),
            Role::Rook => self.rook_origins(to, vacated),
            Role::Queen => self.bishop_origins(to, vacated) | self.rook_origins(to, vacated),
        }
    }

    #[inline]
    fn rook_origins(&self, to: Square, vacated: bool) -> Bitboard {
        if vacated && self.rook_rays.contains(to) {
            attacks::rook_attacks(self.their_king, self.occupied.without(to))
        } else {
            self.rook_rays
        }
    }

    #[inline]
    fn bishop_origins(&self, to: Square, vacated: bool) -> Bitboard {
        if vacated && self.bishop_rays.contains(to) {
            attacks::bishop_attacks(self.their_king, self.occupied.without(to))
        } else {
            self.bishop_rays
        }
    }

    /// Origins a unit leaving `to` without an uncapture may come from without uncovering a check.
    #[inline]
    fn discovery_filter(&self, to: Square) -> Bitboard {
        for d in self.discoveries.iter().flatten() {
            if d.blocker == to {
                return d.line;
            }
        }
        Bitboard::FULL
    }

    /// Origins a unit leaving `to` may come from so that every other checker stops checking: a
    /// slider checker must find the unit on its line, a stepping one cannot be stopped. (`to`
    /// itself is never on a checking line, and the unit leaving it ends its own check.)
    #[inline]
    fn block_filter(&self, to: Square) -> Bitboard {
        let others = self.checkers.without(to);
        if others.is_empty() {
            return Bitboard::FULL;
        }
        if (others & !self.slider_checkers).any() {
            return Bitboard::EMPTY;
        }
        let mut mask = Bitboard::FULL;
        for checker in others {
            mask &= attacks::between(checker, self.their_king);
        }
        mask
    }

    /// Exact test: after `edit` turns the current board into the predecessor's, is the enemy king
    /// safe?
    fn safe_after(&self, board: &Board, edit: impl FnOnce(&mut Board)) -> bool {
        let mut b = board.clone();
        edit(&mut b);
        b.attacks_to(self.their_king, self.us, b.occupied())
            .is_empty()
    }
}

impl RetroPosition {
    /// Every legal retraction of this position, in a fixed order.
    ///
    /// Empty when the retracting side's king is attacked (the position is illegal), when a forced
    /// double step cannot be taken back, or when nothing can move back.
    #[must_use]
    pub fn retractions(&self) -> Vec<Retraction> {
        let mut out = Vec::with_capacity(64);
        self.generate(&mut out);
        out
    }

    /// Fills `out` (cleared first) with every legal retraction; lets hot loops reuse a buffer.
    pub fn retractions_into(&self, out: &mut Vec<Retraction>) {
        out.clear();
        self.generate(out);
    }

    /// The number of legal retractions, counted without building them.
    #[must_use]
    pub fn count_retractions(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        let board = self.board();
        let us = self.retracting();
        let our_king = self.king_of(us);
        if board
            .attacks_to(our_king, us.other(), board.occupied())
            .any()
        {
            return;
        }
        let ctx = Context::new(self);
        if let Some(pawn) = self.forced_double_step() {
            self.gen_forced_double_step(&ctx, pawn, sink);
            return;
        }
        let last_rank = us.relative_rank(Rank::Eighth);
        for to in board.by_color(us) & !self.frozen() {
            let Some(role) = board.role_at(to) else {
                continue;
            };
            match role {
                Role::Pawn => self.gen_pawn(&ctx, to, sink),
                _ => {
                    let origins =
                        attacks::attacks(to, Piece { color: us, role }, ctx.occupied) & ctx.empty;
                    let roles = if to.rank() == Rank::First || to.rank() == Rank::Eighth {
                        UNCAPTURE_PIECE
                    } else {
                        UNCAPTURE_ANY
                    };
                    self.emit(&ctx, role, None, to, origins, origins, roles, sink);
                    if role != Role::King && to.rank() == last_rank {
                        let straight = to
                            .offset(-pawn_forward(us))
                            .map_or(Bitboard::EMPTY, Bitboard::from_square);
                        let diagonal = attacks::pawn_attacks(ctx.them, to);
                        let (plain, capture) = (straight & ctx.empty, diagonal & ctx.empty);
                        self.emit(
                            &ctx,
                            Role::Pawn,
                            Some(role),
                            to,
                            plain,
                            capture,
                            UNCAPTURE_PIECE,
                            sink,
                        );
                    }
                }
            }
        }
        self.gen_uncastling(&ctx, sink);
    }

    /// Emits the retractions of the unit on `to` back to `plain` (no uncapture) and to `capture`
    /// (with every uncapture in `roles`), keeping those after which the enemy king is safe.
    /// `before` is the unit's role in the predecessor, `promotion` its role now if they differ.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn emit<S: Sink>(
        &self,
        ctx: &Context,
        before: Role,
        promotion: Option<Role>,
        to: Square,
        plain: Bitboard,
        capture: Bitboard,
        roles: &'static [Role],
        sink: &mut S,
    ) {
        let capture = if ctx.may_uncapture {
            capture
        } else {
            Bitboard::EMPTY
        };
        let blocks = ctx.block_filter(to);
        let safe_plain =
            plain & blocks & !ctx.check_origins(before, to, true) & ctx.discovery_filter(to);
        let safe_capture = capture & blocks & !ctx.check_origins(before, to, false);
        debug_assert_eq!(
            safe_plain,
            self.exact_origins(ctx, before, to, plain, false)
        );
        debug_assert_eq!(
            safe_capture,
            self.exact_origins(ctx, before, to, capture, true)
        );
        let (plain, capture) = (safe_plain, safe_capture);
        sink.push_group(
            Move::Normal {
                role: before,
                from: to,
                capture: None,
                to,
                promotion,
            },
            plain,
            capture,
            roles,
        );
    }

    /// The squares of `origins` that leave the enemy king safe, tested one by one on a built
    /// board: the slow reference the masks are checked against in debug builds.
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    fn exact_origins(
        &self,
        ctx: &Context,
        before: Role,
        to: Square,
        origins: Bitboard,
        uncapture: bool,
    ) -> Bitboard {
        let mut safe = Bitboard::EMPTY;
        for from in origins {
            let ok = ctx.safe_after(self.board(), |b| {
                b.discard_piece_at(to);
                if uncapture {
                    // Any unit of the side to move only shields its king; a knight stands for all.
                    b.set_piece_at(to, ctx.them.knight());
                }
                b.set_piece_at(
                    from,
                    Piece {
                        color: ctx.us,
                        role: before,
                    },
                );
            });
            if ok {
                safe.add(from);
            }
        }
        safe
    }

    fn gen_forced_double_step<S: Sink>(&self, ctx: &Context, pawn: Square, sink: &mut S) {
        if self.frozen().contains(pawn) {
            return;
        }
        let Some(from) = pawn.offset(-2 * pawn_forward(ctx.us)) else {
            return;
        };
        let safe = ctx.safe_after(self.board(), |b| {
            b.discard_piece_at(pawn);
            b.set_piece_at(from, ctx.us.pawn());
        });
        if safe {
            sink.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to: pawn,
                promotion: None,
            });
        }
    }

    fn gen_pawn<S: Sink>(&self, ctx: &Context, to: Square, sink: &mut S) {
        let us = ctx.us;
        let rank = us.relative_rank(to.rank());
        // A pawn on its second rank has never moved: nothing stands behind it.
        if rank < Rank::Third {
            return;
        }
        let back = -pawn_forward(us);
        let mut plain = Bitboard::EMPTY;
        if let Some(one) = to.offset(back).filter(|sq| ctx.empty.contains(*sq)) {
            plain.add(one);
            if rank == Rank::Fourth {
                if let Some(two) = one.offset(back).filter(|sq| ctx.empty.contains(*sq)) {
                    plain.add(two);
                }
            }
        }
        let diagonal = attacks::pawn_attacks(ctx.them, to) & ctx.empty;
        self.emit(
            ctx,
            Role::Pawn,
            None,
            to,
            plain,
            diagonal,
            UNCAPTURE_ANY,
            sink,
        );
        if rank == Rank::Sixth && ctx.may_uncapture {
            self.gen_en_passant(ctx, to, diagonal, sink);
        }
    }

    /// En passant uncaptures of the pawn on `to` (its sixth rank), from the empty squares `origins`.
    fn gen_en_passant<S: Sink>(&self, ctx: &Context, to: Square, origins: Bitboard, sink: &mut S) {
        let Some(start) = to.offset(pawn_forward(ctx.us)) else {
            return;
        };
        if !ctx.empty.contains(start) {
            return;
        }
        for from in origins {
            let victim = Square::from_coords(to.file(), from.rank());
            if !ctx.empty.contains(victim) {
                continue;
            }
            let safe = ctx.safe_after(self.board(), |b| {
                b.discard_piece_at(to);
                b.set_piece_at(from, ctx.us.pawn());
                b.set_piece_at(victim, ctx.them.pawn());
            });
            if safe {
                sink.push(Move::EnPassant { from, to });
            }
        }
    }

    fn gen_uncastling<S: Sink>(&self, ctx: &Context, sink: &mut S) {
        let us = ctx.us;
        let board = self.board();
        let stuck = self.frozen() | self.promoted();
        for side in CastlingSide::ALL {
            let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
            let (king_from, rook_from) = crate::castling_squares(us, side);
            if board.piece_at(king_to) != Some(us.king())
                || board.piece_at(rook_to) != Some(us.rook())
                || stuck.contains(king_to)
                || stuck.contains(rook_to)
            {
                continue;
            }
            let must_be_empty = (attacks::between(king_from, rook_from)
                .with(king_from)
                .with(rook_from))
            .without(king_to)
            .without(rook_to);
            if (must_be_empty & ctx.occupied).any() {
                continue;
            }
            let mut before = board.clone();
            before.discard_piece_at(king_to);
            before.discard_piece_at(rook_to);
            before.set_piece_at(king_from, us.king());
            before.set_piece_at(rook_from, us.rook());
            let king_path = attacks::between(king_from, king_to)
                .with(king_from)
                .with(king_to);
            let occupied = before.occupied();
            let castling_legal = king_path
                .into_iter()
                .all(|sq| before.attacks_to(sq, ctx.them, occupied).is_empty());
            if castling_legal && before.attacks_to(ctx.their_king, us, occupied).is_empty() {
                sink.push(Move::Castle {
                    king: king_from,
                    rook: rook_from,
                });
            }
        }
    }
}
