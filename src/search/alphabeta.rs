//! The recursive search: principal variation search (negamax, fail-soft) and the
//! quiescence search below it. Each step of `negamax` is named and numbered; the
//! selectivity steps carry the Elo their match measured.

use cozy_chess::{Board, Move, Piece};

use super::history::{ContextMoves, Histories};
use super::movepick::{MovePicker, Stage};
use super::params;
use super::see::see_ge;
use super::thread_data::Searcher;
use super::tt::{Bound, TtEntry, MAX_DEPTH};
use crate::moves::captured;
use crate::rules::{is_quiet, OpponentAttacks};
use crate::score::{
    is_decisive, mate_in, mated_in, tb_loss_in, tb_win_in, INFINITY, MAX_PLY, UNPROVEN,
};
use crate::tablebase::Wdl;

/// How many of the quiet moves and of the captures searched at a node are kept for the
/// histories' maluses when another move cuts off. A node rarely searches more; filling
/// two arrays of `movepick::MAX_MOVES` (256) at every node instead cost about 4% of
/// `bench`'s speed.
const MAX_TRIED: usize = 64;

impl Searcher<'_> {
    /// Searches `board` to `depth` plies within the window (`alpha`, `beta`). `cut_node`
    /// says whether a fail-high is expected: a late move's child searched with a null
    /// window, and the first child of an expected all-node (the labels alternate).
    pub(super) fn negamax(
        &mut self,
        board: &Board,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        let in_check = !board.checkers().is_empty();
        self.pv.clear(ply);
        // The grandchildren's cutoff count starts afresh with each node (see step 15).
        self.stack[ply + 2].cutoffs = 0;

        // Step 1. Horizon: resolve captures with the quiescence search.
        if depth <= 0 && !in_check {
            return self.quiescence(board, alpha, beta, ply);
        }
        depth = depth.max(1);

        // Step 2. The stop check, and node accounting.
        if self.control.should_stop(self.nodes + 1) {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32 + 1);

        if !root {
            // Step 3. Draws: fifty-move rule, repetition, insufficient material.
            if self.is_draw(board) {
                return self.draw_score();
            }
            if ply >= MAX_PLY - 1 {
                return if in_check {
                    0
                } else {
                    self.evaluate(board, ply)
                };
            }
            // Step 4. Mate distance pruning: no line here beats a mate already found
            // closer to the root.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 5. Transposition table lookup; cut off in non-PV nodes when the stored
        // bound settles the question at this depth. A singular-extension search (one
        // move excluded) is a different question: it neither reads nor writes the table.
        let excluded = self.stack[ply].excluded;
        let key = board.hash();
        let tt_entry = if excluded.is_none() {
            self.tt.probe(key, ply, board.halfmove_clock())
        } else {
            None
        };
        let tt_move = match self.root_first {
            Some(first) if root => Some(first),
            _ => tt_entry.and_then(|e| e.mv),
        };
        if let Some(entry) = tt_entry {
            // (Giving a quiet hash move that cuts off here its cutoff's history bonus
            // measured -12.2 ± 17.2 Elo in 1,000 games at 10,000 nodes/move: left out.)
            if !pv_node && entry.depth >= depth && entry.cuts_off(alpha, beta) {
                return entry.score;
            }
        }

        // Step 5b. Tablebase probe, below the root, right after a capture or pawn move
        // (the WDL tables assume a zero fifty-move counter), deep enough and with few
        // enough pieces. A result that settles the window is stored (at the greatest
        // depth: it is no estimate) and returned; in a PV node an unsettling one bounds
        // the score the move loop finds.
        let mut tb_floor = -INFINITY;
        let mut tb_ceiling = INFINITY;
        if !root && excluded.is_none() {
            if let Some((score, bound)) = self.probe_tablebases(board, depth, ply) {
                let settles = match bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if settles {
                    let (eval, _) = self.static_evals(board, tt_entry, in_check, ply);
                    self.tt.store(key, None, score, eval, TB_DEPTH, bound, ply);
                    return score;
                }
                if pv_node {
                    match bound {
                        Bound::Lower => tb_floor = score,
                        _ => tb_ceiling = score,
                    }
                }
            }
        }

        // Step 6. Static evaluation (the table keeps it raw; the correction history
        // adjusts it), and whether it improved on two plies ago.
        let (raw_eval, static_eval) = self.static_evals(board, tt_entry, in_check, ply);
        self.stack[ply].static_eval = static_eval;
        // (Comparing with four plies back when the side was in check two plies back
        // measured -2.1 ± 16.9 Elo in 1,000 games at 10,000 nodes/move: left out.)
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != -INFINITY
            && static_eval > self.stack[ply - 2].static_eval;
        // (Eval-difference history, a butterfly bonus of -10 × (parent's + this static
        // eval), at most ±1000, for the quiet move that led here, measured 332-384-284,
        // -18.1 ± 18.3 Elo, in 1,000 games at 10,000 nodes/move: left out.)
        // A TT score is a better estimate than the static evaluation when its bound allows.
        let eval = refined_eval(tt_entry, static_eval, in_check);
        self.histories.clear_killers_at(ply + 1);
        // (Hindsight depth changes for a node its parent reduced: a ply less when its
        // static eval and its parent's sum above 200, measured +0.0 ± 5.4 Elo, SPRT H0
        // after 355 games at 10,000 nodes/move; with a ply more when reduced by three or
        // more and the sum is 0 or less, -0.3 ± 15.7 in 1,000 games: left out.)

        if !pv_node && !in_check && excluded.is_none() {
            // Step 7. Reverse futility pruning: far above beta at low depth, assume the
            // opponent cannot catch up.
            // Measured: +135 ± 44 Elo (step removed vs kept, 200 games at 20k nodes/move).
            if depth <= params::rfp_max_depth()
                && !is_decisive(beta)
                && eval - rfp_margin(depth, improving) >= beta
            {
                return (eval + beta) / 2;
            }

            // (Razoring, a quiescence search that fails low at depth <= 3 when the eval
            // is 250 per ply below alpha, measured 160-177-170, about -12 Elo, after 507
            // of 1,000 games at 10,000 nodes/move: left out.)

            // Step 8. Null move pruning: if passing still fails high, a real move will.
            // Not in pawn endings, where zugzwang makes passing an advantage.
            // Measured: +51 ± 42 Elo (step removed vs kept, 200 games at 20k nodes/move).
            // (Requiring `static_eval >= beta - 20 * depth + 160` instead measured
            // -50.6 ± 26.9 Elo, SPRT H0 after 485 games; dropping the static-eval
            // condition +5.6 ± 17.9 and a reduction of `depth / 3` instead of `depth / 4`
            // -6.6 ± 17.6, 1,000 games each at 10,000 nodes/move: left out.)
            if depth >= params::nmp_min_depth()
                && eval >= beta
                && static_eval >= beta
                && self.stack[ply].null_allowed
                && has_non_pawn_material(board)
            {
                let reduction = null_move_reduction(depth, eval, beta);
                if let Some(child) = self.play_null(board, ply) {
                    self.stack[ply + 1].null_allowed = false;
                    let score = -self.negamax(
                        &child,
                        -beta,
                        -beta + 1,
                        depth - reduction,
                        ply + 1,
                        !cut_node,
                    );
                    self.unplay();
                    self.stack[ply + 1].null_allowed = true;
                    if self.control.stopped() {
                        return 0;
                    }
                    if score >= beta {
                        return if is_decisive(score) { beta } else { score };
                    }
                }
            }
        }

        // (ProbCut, a capture that beats beta by 200 by SEE, quiescence and a search
        // four plies shallower cutting off from depth 5, measured 218-248-185, about
        // -16 Elo, after 651 of 1,000 games at 10,000 nodes/move: left out.)

        // Step 9. Internal iterative reduction: without a hash move this node was never
        // searched well; search it shallower now, better next iteration.
        // Measured: +16 ± 40 Elo (step removed vs kept, 200 games at 20k nodes/move).
        if !root && depth >= params::iir_min_depth() && tt_move.is_none() && (pv_node || cut_node) {
            depth -= 1;
        }

        // Step 10. The move loop.
        // The opponent's attacks index the butterfly history (`Histories::quiet`) and
        // give quiet moves their threat bonus (`movepick::threat_bonus`). A singular
        // search (a move excluded) re-searches this ply's board: already set.
        if excluded.is_none() {
            self.stack[ply].threats = OpponentAttacks::of(board);
        }
        let context = self.context(ply);
        let killers = self.histories.killers(ply);
        let counter = self.histories.counter_move(&context);
        let mut picker = MovePicker::new(tt_move, killers, counter);
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut move_count = 0;
        let mut quiets_tried = [Move {
            from: cozy_chess::Square::A1,
            to: cozy_chess::Square::A1,
            promotion: None,
        }; MAX_TRIED];
        let mut quiet_count = 0;
        let mut captures_tried = quiets_tried;
        let mut capture_count = 0;
        let original_alpha = alpha;

        while let Some(mv) = picker.next(board, &self.histories, &context) {
            if Some(mv) == excluded || (root && !self.is_root_move(mv)) {
                continue;
            }
            let quiet = is_quiet(board, mv);
            // The histories' score of a quiet move, read once for steps 11b and 15.
            let history = if quiet {
                self.histories.quiet_score(board, mv, &context)
            } else {
                0
            };
            move_count += 1;

            // The child board is made now because the pruning below asks whether the move
            // gives check; the move is recorded on the stack (`push_move`) only once it is
            // going to be searched.
            let child = self.make_move(board, mv);
            let gives_check = !child.checkers().is_empty();

            // Quiet-move pruning, once a move has escaped being mated or a tablebase loss
            // (a quiet move may be the one that escapes it).
            if quiet
                && !root
                && best_score > -crate::score::TB_WIN_BOUND
                && has_non_pawn_material(board)
            {
                // Step 11. Late move pruning: enough quiet moves tried at low depth.
                // Measured: +26 ± 40 Elo (step removed vs kept, 200 games at 20k nodes/move).
                if move_count > lmp_threshold(depth, improving) {
                    picker.skip_quiets();
                    continue;
                }
                // Step 11b. History pruning: at low depth, a quiet move whose histories
                // say it has kept failing here is not worth a search.
                // Measured: +14.6 ± 14.6 Elo (added vs without, 1,000 games at 10,000
                // nodes/move, pentanomial).
                if depth <= params::hp_max_depth() && history < -params::hp_margin() * depth {
                    continue;
                }
                // Steps 12 and 13 judge the move at the depth LMR would search it to.
                // Measured (this depth instead of the node's): +23.7 ± 18.0 Elo (1,000
                // games at 10,000 nodes/move, pentanomial).
                let lmr_depth = (depth - 1 - self.lmr.reduction(depth, move_count, true)
                    + history_reduction(history))
                .max(0);
                // Step 12. Futility pruning: the static eval is too far below alpha
                // for a quiet move to help, unless it checks.
                // Measured: +58 ± 41 Elo (step removed vs kept, 200 games at 20k nodes/move).
                if !in_check
                    && !gives_check
                    && lmr_depth <= params::fp_max_depth()
                    && eval + futility_margin(lmr_depth) <= alpha
                {
                    continue;
                }
                // Step 13. SEE pruning of quiet moves that lose material (checks get
                // more rope: a sacrifice with check is how mates start).
                // Measured: +49 ± 40 Elo (step removed vs kept, 200 games at 20k nodes/move).
                // (SEE pruning of losing captures measured +0 ± 42: left out. Futility
                // pruning of captures, the static eval plus the victim plus 200 + 150 per
                // ply still below alpha at depth <= 6, measured +8.3 ± 17.1 Elo in 1,000
                // games at 10,000 nodes/move: not shown, left out.)
                let margin = see_quiet_margin(lmr_depth, gives_check);
                if lmr_depth <= params::see_max_depth() && !see_ge(board, mv, margin) {
                    continue;
                }
            }

            if root {
                self.report_current_move(board, mv, move_count);
            }

            // Step 14. Singular extension: when the hash move is much better than every
            // alternative (a reduced search without it fails low), search it one ply
            // deeper, two when far better. When the alternatives beat beta too, cut off
            // (multi-cut); when only the hash move's bound says it fails high, search it
            // a ply shallower.
            // Measured: +47.8 ± 23.3 Elo (added vs without, SPRT [0, 10] at 5+0.05, H1
            // after 388 games). An earlier single-extension form from depth 8 measured
            // +1.7 ± 40 at 20k nodes/move, too shallow for it to act. (A check extension
            // measured -19 ± 28 Elo over 400 games at 20k nodes/move: left out.)
            let extension = match tt_entry {
                Some(entry) if !root && excluded.is_none() && Some(mv) == entry.mv => {
                    match self.singular_extension(board, entry, beta, depth, ply, pv_node, cut_node)
                    {
                        Singular::Extend(extension) => extension,
                        Singular::MultiCut(score) => return score,
                        Singular::Stopped => return 0,
                    }
                }
                _ => 0,
            };
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + u8::from(extension >= 2);

            self.push_move(board, mv, quiet, ply);
            let nodes_before = self.nodes;
            let new_depth = depth - 1 + extension;

            // Step 15. Principal variation search with late move reductions.
            // Measured (LMR): +143 ± 44 Elo (step removed vs kept, 200 games at 20k nodes/move).
            let mut score;
            if move_count == 1 {
                // The first move's reply is expected to fail high below an expected
                // all-node, low below a cut node (the labels alternate; a PV node's
                // first child is a PV node). Measured (against every first child an
                // all-node): +4.0 ± 12.2 Elo, 2,000 games at 10,000 nodes/move.
                let child_cut = !pv_node && !cut_node;
                score = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, child_cut);
            } else {
                let mut reduction = 0;
                if depth >= params::lmr_min_depth()
                    && move_count > 1 + usize::from(pv_node)
                    && (quiet || !matches!(picker.stage(), Stage::GoodCaptures))
                {
                    reduction = self.lmr.reduction(depth, move_count, quiet);
                    reduction -= i32::from(pv_node);
                    // (A ply less again where the hash table marks the position as once
                    // searched as a PV node measured 111-182-90, about -66 Elo, after 383
                    // games at 10,000 nodes/move: left out.)
                    // (Two plies at cut nodes measured +12.2 ± 19.0 Elo in 1,000 games
                    // at 10,000 nodes/move: not shown, left out.)
                    reduction += i32::from(cut_node);
                    // A ply more when the replies to the earlier moves here kept failing
                    // high (more than three cutoffs one ply down): this node is likely
                    // to fail low, and its late moves matter less.
                    // Measured: +31.5 ± 18.5 Elo (added vs without, SPRT [0, 10] at
                    // 10,000 nodes/move, H1 after 963 games, pentanomial).
                    reduction += i32::from(
                        i32::from(self.stack[ply + 1].cutoffs) > params::lmr_cutoff_count(),
                    );
                    reduction -= i32::from(improving);
                    reduction -= i32::from(gives_check);
                    // (Captures reduced less by `capture history / 8192` measured -0.7
                    // ± 17.3 Elo in 1,000 games at 10,000 nodes/move, and captures that
                    // lose by SEE reduced a ply more -9.0 ± 16.6: left out.)
                    if quiet {
                        reduction -= history_reduction(history);
                    }
                    // (A ply less for the killers and the counter move measured -6.2
                    // ± 29.5 Elo after 335 games at 10,000 nodes/move: left out.)
                    // (One more ply for quiet moves when the hash move is a capture
                    // measured 244-249-220, about -2 Elo, after 713 of 1,000 games at
                    // 10,000 nodes/move: left out.)
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                score = -self.negamax(
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth - reduction,
                    ply + 1,
                    true,
                );
                // (Re-searching a ply deeper when the reduced score beat the best by
                // 50 + 2 per ply, a ply shallower when by under 10, measured 350-354-296,
                // -1.4 ± 18.1 Elo, in 1,000 games at 10,000 nodes/move: left out.)
                if score > alpha && reduction > 0 {
                    score =
                        -self.negamax(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.unplay();
            if root {
                self.record_root_nodes(mv, self.nodes - nodes_before);
            }
            if self.control.stopped() {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.pv.update(ply, mv);
                    if root {
                        self.root_best = Some((mv, score));
                    }
                    if score >= beta {
                        self.stack[ply].cutoffs = self.stack[ply].cutoffs.saturating_add(1);
                        break;
                    }
                }
            }
            if quiet && quiet_count < MAX_TRIED {
                quiets_tried[quiet_count] = mv;
                quiet_count += 1;
            } else if !quiet && capture_count < MAX_TRIED {
                captures_tried[capture_count] = mv;
                capture_count += 1;
            }
        }

        // Step 16. No legal move: mate or stalemate.
        if move_count == 0 {
            return if excluded.is_some() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                0
            };
        }

        // Step 17. History updates on a cutoff, and the transposition table store.
        if best_score >= beta {
            if let Some(best) = best_move {
                if is_quiet(board, best) {
                    self.histories.update_quiet_cutoff(
                        board,
                        best,
                        &quiets_tried[..quiet_count],
                        depth,
                        ply,
                        &context,
                    );
                }
                // Rewards a capture that cut off; penalises the captures that did not.
                self.histories.update_capture_cutoff(
                    board,
                    best,
                    &captures_tried[..capture_count],
                    depth,
                );
            }
        }
        // A tablebase bound found in Step 5b outweighs what the search saw.
        let mut tb_bound = None;
        if best_score < tb_floor {
            (best_score, tb_bound) = (tb_floor, Some(Bound::Lower));
        } else if best_score > tb_ceiling {
            (best_score, tb_bound) = (tb_ceiling, Some(Bound::Upper));
        }
        if excluded.is_none() {
            let bound = if let Some(bound) = tb_bound {
                bound
            } else if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt
                .store(key, best_move, best_score, raw_eval, depth, bound, ply);

            // Step 17b. Prior-move bonus: when every move here failed low, the opponent's
            // quiet move that led here was a good one.
            // Measured: +17.7 ± 18.1 Elo (added vs without, 1,000 games at 10,000
            // nodes/move, pentanomial).
            if best_move.is_none() && tb_bound.is_none() && ply >= 1 {
                if let (Some(prev), Some((piece, _))) =
                    (self.stack[ply].quiet_move, self.stack[ply].moved)
                {
                    let cont = self.context(ply - 1);
                    self.histories.update_quiet(
                        !board.side_to_move(),
                        piece,
                        prev,
                        Histories::bonus(depth),
                        &cont,
                    );
                }
            }

            // Step 18. Correction history: teach the table how far the raw static
            // evaluation was from what the search found, when the bound says which way.
            // Measured: +6.6 ± 18.2 Elo (added vs without, 1,000 games at 10,000
            // nodes/move, pentanomial [59, 92, 185, 99, 65]); the error against the raw
            // evaluation instead of the corrected one (whose entries settled at half the
            // error): +2.1 ± 16.6 (1,000 games at 10,000 nodes/move).
            let quiet_best = best_move.is_none_or(|mv| is_quiet(board, mv));
            if !in_check
                && quiet_best
                && tb_bound.is_none()
                && !is_decisive(best_score)
                && ((best_score < static_eval && best_score < beta)
                    || (best_score > static_eval && best_move.is_some()))
            {
                self.histories
                    .correction
                    .update(board, depth, best_score - raw_eval);
            }
        }
        best_score
    }

    /// The static evaluation of `board` (at `ply`) as the hash table keeps it (raw: from
    /// `tt_entry` when there is one) and as the search uses it (corrected by the
    /// correction history, kept below the tablebase and mate scores); both `-INFINITY`
    /// in check.
    #[inline]
    fn static_evals(
        &mut self,
        board: &Board,
        tt_entry: Option<TtEntry>,
        in_check: bool,
        ply: usize,
    ) -> (i32, i32) {
        if in_check {
            return (-INFINITY, -INFINITY);
        }
        let raw = match tt_entry {
            Some(entry) => entry.eval,
            None => self.evaluate(board, ply),
        };
        let corrected = self.histories.correction.correct(board, raw);
        // (Damping the eval towards a draw as the fifty-move counter runs, by
        // (200 - halfmove) / 200, measured 368-357-275, +3.8 ± 18.7 Elo, in 1,000 games at
        // 10,000 nodes/move: not shown to help, left out.)
        (raw, super::evaluator::clamp_static(corrected))
    }

    /// Step 14's test of the hash move (`entry.mv`) at a non-root node with no move
    /// excluded (`beta`, `pv_node` and `cut_node` are the node's). When the entry is deep
    /// and trustworthy enough, searches every other move to half depth against a beta
    /// just below the hash score, and says how far to extend the hash move (2, 1, 0 or
    /// -1), or that the node cuts off (multi-cut).
    #[allow(clippy::too_many_arguments)]
    fn singular_extension(
        &mut self,
        board: &Board,
        entry: TtEntry,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Singular {
        if depth < params::se_min_depth()
            || ply >= 2 * self.root_depth as usize
            || entry.depth < depth - params::se_tt_depth_margin()
            || entry.bound == Bound::Upper
            // A proven result, or the bound short of one that a mate beyond the
            // fifty-move draw leaves (`tt.rs`): no score to search just below.
            || entry.score.abs() >= UNPROVEN
        {
            return Singular::Extend(0);
        }
        // (`entry.score - 2 * depth` measured +4.5 ± 17.3 Elo in 1,000 games at 10,000
        // nodes/move: not shown, left out.)
        let singular_beta = entry.score - params::se_beta_scale() * depth / 16;
        self.stack[ply].excluded = entry.mv;
        let score = self.negamax(
            board,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            cut_node,
        );
        self.stack[ply].excluded = None;
        // The excluded search wrote its own line at this ply; forget it.
        self.pv.clear(ply);
        if self.control.stopped() {
            Singular::Stopped
        } else if score < singular_beta {
            let double = !pv_node
                && score < singular_beta - params::se_double_margin()
                && i32::from(self.stack[ply].double_extensions) < params::se_max_double();
            Singular::Extend(if double { 2 } else { 1 })
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else if entry.score >= beta {
            // (Also at every cut node measured -2.1 ± 17.9 Elo in 1,000 games at 10,000
            // nodes/move: left out.)
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Step 5b's probe: the tablebase score of `board` (at `ply`, `depth` to go) and the
    /// bound it is, when the tables are loaded, the position may be probed, and a table
    /// answers. Counts the hit.
    fn probe_tablebases(&mut self, board: &Board, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        let probing = self.tablebases.as_ref()?;
        if !probing.probes_in_tree(board, depth) {
            return None;
        }
        let wdl = probing.tables.probe_wdl(board)?;
        self.control.count_tbhit();
        Some(tablebase_score(wdl, probing.fifty_move_rule, ply))
    }

    /// Searches captures (and every evasion when in check) until the position is quiet.
    pub(super) fn quiescence(
        &mut self,
        board: &Board,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv.clear(ply);
        if self.control.should_stop(self.nodes + 1) {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32 + 1);
        if self.is_draw(board) {
            return self.draw_score();
        }
        let in_check = !board.checkers().is_empty();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                self.evaluate(board, ply)
            };
        }

        let key = board.hash();
        let tt_entry = self.tt.probe(key, ply, board.halfmove_clock());
        if let Some(entry) = tt_entry {
            if entry.cuts_off(alpha, beta) {
                return entry.score;
            }
        }

        // Stand pat: the side to move may decline every capture.
        let (raw_eval, static_eval) = self.static_evals(board, tt_entry, in_check, ply);
        // A hash score whose bound allows it is a better stand-pat than the evaluation.
        // Measured: +6.9 ± 18.2 Elo (added vs without, 1,000 games at 10,000 nodes/move).
        let mut best_score = refined_eval(tt_entry, static_eval, in_check);
        if best_score >= beta {
            return best_score;
        }
        alpha = alpha.max(best_score);

        if in_check {
            // Quiet evasions are ordered by the histories and the threat bonus.
            self.stack[ply].threats = OpponentAttacks::of(board);
        }
        let context = self.context(ply);
        let mut picker = MovePicker::new_qsearch(tt_entry.and_then(|e| e.mv), in_check);
        let mut best_move = None;
        let mut move_count = 0;
        while let Some(mv) = picker.next(board, &self.histories, &context) {
            move_count += 1;
            if !in_check && qsearch_prunes(board, mv, static_eval, alpha) {
                continue;
            }
            let child = self.play(board, mv, ply);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            self.unplay();
            if self.control.stopped() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.pv.update(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, best_score, raw_eval, 0, bound, ply);
        best_score
    }

    fn context(&self, ply: usize) -> ContextMoves {
        let back = |n: usize| ply.checked_sub(n).and_then(|i| self.stack[i].moved);
        ContextMoves {
            prev1: back(0),
            prev2: back(1),
            prev3: back(2),
            prev4: back(3),
            threats: self.stack[ply].threats,
        }
    }
}

/// The static evaluation refined by the hash score, when its bound says the score is the
/// better estimate (never in check, never a decisive score).
#[inline]
fn refined_eval(tt_entry: Option<TtEntry>, static_eval: i32, in_check: bool) -> i32 {
    match tt_entry {
        Some(e) if !in_check && !is_decisive(e.score) && e.improves_on(static_eval) => e.score,
        _ => static_eval,
    }
}

fn captured_value(board: &Board, mv: Move) -> i32 {
    captured(board, mv).map_or(0, |(piece, _)| super::see::SEE_VALUES[piece as usize])
}

fn has_non_pawn_material(board: &Board) -> bool {
    let ours = board.colors(board.side_to_move());
    !(ours & !(board.pieces(Piece::Pawn) | board.pieces(Piece::King))).is_empty()
}

/// What step 14's singular search found for the hash move.
enum Singular {
    /// Search the move this many plies deeper (negative: shallower).
    Extend(i32),
    /// Other moves beat beta too: the node fails high with this score.
    MultiCut(i32),
    /// The search was stopped meanwhile.
    Stopped,
}

/// What a queen promotion adds to a capture's gain (queen less pawn, roughly).
const PROMOTION_GAIN: i32 = 800;

/// How far above beta the eval must be for reverse futility pruning.
fn rfp_margin(depth: i32, improving: bool) -> i32 {
    params::rfp_margin() * (depth - i32::from(improving))
}

/// How much shallower the null-move search goes: more at depth and far above beta.
fn null_move_reduction(depth: i32, eval: i32, beta: i32) -> i32 {
    params::nmp_base()
        + depth / params::nmp_depth_divisor()
        + ((eval - beta) / params::nmp_eval_divisor()).min(params::nmp_eval_max())
}

/// How many plies less LMR reduces a quiet move for its history score (more when the
/// score is negative).
fn history_reduction(history: i32) -> i32 {
    history / params::lmr_history_divisor()
}

/// How far below alpha the eval may be before quiet moves are futile.
fn futility_margin(depth: i32) -> i32 {
    params::fp_base() + params::fp_margin() * depth
}

/// The SEE a quiet move must reach not to be pruned; checks may sacrifice more.
fn see_quiet_margin(depth: i32, gives_check: bool) -> i32 {
    if gives_check {
        -params::see_check_margin() * depth * depth
    } else {
        -params::see_quiet_margin() * depth
    }
}

/// How many quiet moves are tried before the rest are skipped.
fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = params::lmp_base() + params::lmp_scale() * depth * depth / 100;
    (if improving {
        base
    } else {
        base * params::lmp_not_improving() / 100
    }) as usize
}

/// The depth tablebase results are stored at in the hash table: the greatest, since they
/// are facts, not estimates.
const TB_DEPTH: i32 = MAX_DEPTH;

/// The score of a tablebase verdict `ply` plies from the root, and the bound it is: a win
/// is worth at least `TB_WIN - ply` (a mate may be found that scores more), a loss at most
/// `-TB_WIN + ply`, a draw exactly 0. With `fifty_move_rule` a cursed win or blessed loss
/// is a draw; without it, a win or loss.
pub(super) fn tablebase_score(wdl: Wdl, fifty_move_rule: bool, ply: usize) -> (i32, Bound) {
    match wdl.outcome(fifty_move_rule) {
        1 => (tb_win_in(ply), Bound::Lower),
        -1 => (tb_loss_in(ply), Bound::Upper),
        _ => (0, Bound::Exact),
    }
}

/// Whether quiescence skips the capture `mv` (never in check): delta pruning, when even
/// winning the piece leaves `static_eval` short of `alpha`, and SEE pruning of a capture
/// that loses material.
#[inline]
fn qsearch_prunes(board: &Board, mv: Move, static_eval: i32, alpha: i32) -> bool {
    // Delta pruning: even winning the piece does not reach alpha.
    // Measured: +10 ± 39 Elo (step removed vs kept, 200 games at 20k nodes/move).
    let gain = captured_value(board, mv)
        + if mv.promotion.is_some() {
            PROMOTION_GAIN
        } else {
            0
        };
    if static_eval + gain + params::delta_margin() <= alpha {
        return true;
    }
    // SEE pruning: a capture that loses material cannot raise alpha.
    // Measured: +53 ± 42 Elo (step removed vs kept, 200 games at 20k nodes/move).
    // (Futility, skipping captures with SEE < 1 when the static eval is 120 below alpha,
    // measured -1.4 ± 17.4 Elo in 1,000 games at 10,000 nodes/move: left out.)
    !see_ge(board, mv, params::qs_see_threshold())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tablebase_scores_follow_the_fifty_move_rule() {
        assert_eq!(
            tablebase_score(Wdl::Win, true, 3),
            (tb_win_in(3), Bound::Lower)
        );
        assert_eq!(
            tablebase_score(Wdl::Loss, true, 4),
            (tb_loss_in(4), Bound::Upper)
        );
        assert_eq!(tablebase_score(Wdl::Draw, false, 2), (0, Bound::Exact));
        // A cursed win is a draw under the fifty-move rule, a win without it.
        assert_eq!(tablebase_score(Wdl::CursedWin, true, 5), (0, Bound::Exact));
        assert_eq!(
            tablebase_score(Wdl::CursedWin, false, 5),
            (tb_win_in(5), Bound::Lower)
        );
        assert_eq!(
            tablebase_score(Wdl::BlessedLoss, true, 5),
            (0, Bound::Exact)
        );
        assert_eq!(
            tablebase_score(Wdl::BlessedLoss, false, 5),
            (tb_loss_in(5), Bound::Upper)
        );
    }
}
