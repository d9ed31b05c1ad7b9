//! Time management: how long one move may think, from `go movetime` or the clock.
//!
//! Two limits, measured from the `go` (the hard limit of a ponder search from its
//! `ponderhit`, [`Signals::clock_start`]):
//!
//! - the **soft** limit is the planned thinking time. Between iterations,
//!   [`TimeManager::start_next_iteration`] scales it by how settled the search looks and
//!   declines to start another iteration past it;
//! - the **hard** limit aborts the search mid-iteration ([`TimeManager::hard_stop`]). It
//!   is what keeps the engine from losing on time.
//!
//! With a clock, the time left after the Move Overhead (`usable`) is shared out over an
//! expected number of moves (`movestogo`, or an estimate from the move number in sudden
//! death; when the increment does not exceed the Move Overhead, the overhead of 40 more
//! moves, up to a second, is kept back too, for the quick moves of a long game's end):
//! `soft = usable / moves + increment`, `hard = min(5 soft, 40 % of usable)`,
//! and with a single move to go `hard = 85 %` of usable. The increment is never counted
//! on for the hard limit: it only arrives after the move. Both limits are at least
//! [`MIN_LIMIT`], so a search always has time to complete depth 1.
//!
//! Guarantee: with a clock, `MIN_LIMIT <= soft <= hard <= max(time - overhead,
//! MIN_LIMIT)`. When the overhead eats the whole clock (`time - overhead < 1 ms`), both
//! limits are `MIN_LIMIT`: move at once, it is the best that can be done.
//!
//! While pondering the search does not stop on time; after `ponderhit` the hard limit
//! runs from the `ponderhit`, and the soft limit from the `go` (thinking done while
//! pondering counts, and a `ponderhit` after the soft limit ends the search at once).
//!
//! [`Signals::clock_start`]: super::signals::Signals::clock_start

use std::time::Duration;

use super::params::{self, hundredths};
use super::{Clock, Limits};

/// The smallest limit given with a clock: a few hundred microseconds more than a depth-1
/// search needs, so that the search still returns a move.
pub const MIN_LIMIT: Duration = Duration::from_millis(1);

/// The most time kept back for the quick moves at the end of a long game without an
/// increment: the overhead of `tm_reserve_moves` moves at the default Move Overhead is
/// well under it, while a Move Overhead of seconds (a bot's network lag) would otherwise
/// keep back most of the clock and make every move instant.
pub const MAX_RESERVE: Duration = Duration::from_secs(1);

// The factors below are parameters (`tm_*` in `params.rs`), in hundredths: the hard
// limit is at most `tm_hard_per_soft` soft limits (fewer when few moves are to go), and
// at most `tm_hard_fraction` of the usable time when more than one move is to go, or
// `tm_hard_fraction_last` for the last move before the time control; the soft limit gets
// `tm_increment_share` of the increment; in sudden death `tm_moves_start` moves are
// expected at the start of the game, falling by one every two moves to `tm_moves_end`,
// and when the increment does not pay for the Move Overhead, the overhead of
// `tm_reserve_moves` moves (at most [`MAX_RESERVE`]) is kept back; the combined scale of
// the soft limit between iterations stays within `tm_min_scale` and `tm_max_scale`.

/// The time limits of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeManager {
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Limits from `go movetime` or from the clock of the side to move (when both are
    /// given, whichever allows less: a movetime longer than the clock allows would lose on
    /// time); none for `go infinite` or a search bounded only by depth, nodes or mate.
    /// `overhead` is the Move Overhead option; `fullmove_number` is the FEN's (from 1).
    pub fn new(limits: &Limits, overhead: Duration, fullmove_number: u32) -> TimeManager {
        if limits.infinite {
            return TimeManager::unlimited();
        }
        let by_clock = limits
            .clock
            .map(|clock| TimeManager::from_clock(&clock, overhead, fullmove_number));
        let Some(movetime) = limits.movetime else {
            return by_clock.unwrap_or_else(TimeManager::unlimited);
        };
        // Exactly the movetime less the overhead, but at least a millisecond (and never
        // more than the movetime itself). No soft limit: the whole movetime is used, not
        // cut short by a stable best move.
        let limit = movetime
            .saturating_sub(overhead)
            .max(MIN_LIMIT)
            .min(movetime);
        match by_clock {
            Some(clock) if clock.hard.is_some_and(|hard| hard < limit) => clock,
            _ => TimeManager {
                soft: None,
                hard: Some(limit),
            },
        }
    }

    /// Limits from the clock of the side to move.
    fn from_clock(clock: &Clock, overhead: Duration, fullmove_number: u32) -> TimeManager {
        let moves = match clock.moves_to_go {
            Some(moves) => moves.max(1),
            None => sudden_death_moves(fullmove_number),
        };
        // With no time control ahead and no increment beyond the Move Overhead, no time
        // comes back after a move: the overhead of `tm_reserve_moves` moves is kept
        // back, so that a long game ends in quick moves rather than a loss on time.
        let reserve = if clock.moves_to_go.is_none() && clock.increment <= overhead {
            (overhead * params::tm_reserve_moves().unsigned_abs()).min(MAX_RESERVE)
        } else {
            Duration::ZERO
        };
        let usable = millis(clock.time.saturating_sub(overhead + reserve));
        let increment = millis(clock.increment);
        let fraction = if moves == 1 {
            hundredths(params::tm_hard_fraction_last())
        } else {
            hundredths(params::tm_hard_fraction())
        };
        let soft = usable / f64::from(moves) + hundredths(params::tm_increment_share()) * increment;
        let hard = (hard_per_soft(moves) * soft).min(fraction * usable);
        let hard = from_millis(hard).max(MIN_LIMIT);
        let soft = from_millis(soft).clamp(MIN_LIMIT, hard);
        TimeManager {
            soft: Some(soft),
            hard: Some(hard),
        }
    }

    /// No time limit at all.
    pub fn unlimited() -> TimeManager {
        TimeManager {
            soft: None,
            hard: None,
        }
    }

    /// The planned thinking time, before scaling.
    pub fn soft_limit(&self) -> Option<Duration> {
        self.soft
    }

    /// The time at which the search is aborted.
    pub fn hard_limit(&self) -> Option<Duration> {
        self.hard
    }

    /// Whether the search must stop now, `elapsed` after the clock start. Cheap: meant
    /// to be checked every few thousand nodes.
    pub fn hard_stop(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|hard| elapsed >= hard)
    }

    /// Whether to start another iteration, `elapsed` after the `go`. The soft limit is
    /// scaled by (the figures are the defaults of the `tm_*` parameters):
    ///
    /// - `stability`, the number of iterations the best move has stayed the same: from
    ///   1.3x for a new best move down to 0.5x after eight;
    /// - `score_drop`, the previous iteration's score minus this one's (centipawns): a
    ///   falling score earns up to 2x, a rising one down to 0.85x;
    /// - `best_move_nodes_fraction`, the share of the last iteration's root nodes spent
    ///   on the best move: 1.5 minus it, within 0.55x..=1.4x (0.5 is neutral; a value
    ///   outside 0..=1, such as NaN from zero nodes, counts as neutral).
    ///
    /// The combined scale stays within 0.4x..=2.5x, and the answer is false once the
    /// hard limit has passed.
    pub fn start_next_iteration(
        &self,
        elapsed: Duration,
        stability: u32,
        score_drop: i32,
        best_move_nodes_fraction: f64,
    ) -> bool {
        let times = (elapsed, elapsed);
        self.start_next_iteration_pondered(times, stability, score_drop, best_move_nodes_fraction)
    }

    /// [`TimeManager::start_next_iteration`] for a search that may have pondered: of
    /// `(thinking, elapsed)`, the time since the `go` (pondering included) is judged
    /// against the scaled soft limit, the time since the clock start (the `ponderhit`)
    /// against the hard limit.
    pub fn start_next_iteration_pondered(
        &self,
        (thinking, elapsed): (Duration, Duration),
        stability: u32,
        score_drop: i32,
        best_move_nodes_fraction: f64,
    ) -> bool {
        if self.hard_stop(elapsed) {
            return false;
        }
        let (Some(soft), Some(hard)) = (self.soft, self.hard) else {
            return true;
        };
        let iterations = stability.min(params::tm_stability_iters().unsigned_abs());
        let stability = hundredths(params::tm_stability_base())
            - hundredths(params::tm_stability_step()) * f64::from(iterations);
        let score = (1.0 + f64::from(score_drop) / f64::from(params::tm_score_divisor())).clamp(
            hundredths(params::tm_score_min()),
            hundredths(params::tm_score_max()),
        );
        let nodes = if (0.0..=1.0).contains(&best_move_nodes_fraction) {
            (hundredths(params::tm_nodes_base()) - best_move_nodes_fraction).clamp(
                hundredths(params::tm_nodes_min()),
                hundredths(params::tm_nodes_max()),
            )
        } else {
            1.0
        };
        let scale = (stability * score * nodes).clamp(
            hundredths(params::tm_min_scale()),
            hundredths(params::tm_max_scale()),
        );
        thinking < soft.mul_f64(scale).min(hard)
    }
}

/// How many soft limits the hard limit may be: fewer with few moves to go, when a long
/// search would eat the time the remaining moves need.
fn hard_per_soft(moves: u32) -> f64 {
    (1.0 + f64::from(moves) / 10.0).min(hundredths(params::tm_hard_per_soft()))
}

/// The number of moves the remaining time is planned for in sudden death.
fn sudden_death_moves(fullmove_number: u32) -> u32 {
    params::tm_moves_start()
        .unsigned_abs()
        .saturating_sub(fullmove_number / 2)
        .max(params::tm_moves_end().unsigned_abs())
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// Milliseconds to a duration; non-finite or negative inputs give zero, and absurdly
/// large ones (beyond a million years) saturate.
fn from_millis(ms: f64) -> Duration {
    const MAX_SECS: f64 = 3.2e13;
    let secs = ms / 1000.0;
    if secs.is_nan() {
        Duration::ZERO
    } else {
        Duration::from_secs_f64(secs.clamp(0.0, MAX_SECS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    const MS: Duration = Duration::from_millis(1);

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock_limits(time: u64, increment: u64, moves_to_go: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time: Duration::from_millis(time),
                increment: Duration::from_millis(increment),
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

    fn manager(time: u64, increment: u64, moves_to_go: Option<u32>, overhead: u64) -> TimeManager {
        let limits = clock_limits(time, increment, moves_to_go);
        TimeManager::new(&limits, Duration::from_millis(overhead), 1)
    }

    #[test]
    fn no_time_bound_means_no_limits() {
        let depth_only = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let mut infinite = clock_limits(1000, 0, None);
        infinite.infinite = true;
        for limits in [depth_only, infinite, Limits::default()] {
            let tm = TimeManager::new(&limits, ms(10), 1);
            assert_eq!((tm.soft_limit(), tm.hard_limit()), (None, None));
            assert!(!tm.hard_stop(Duration::from_secs(1_000_000)));
            assert!(tm.start_next_iteration(Duration::from_secs(1_000_000), 0, 0, 0.5));
        }
    }

    #[test]
    fn movetime_is_exact_less_overhead() {
        let cases = [
            (1000, 10, 990),
            (1000, 0, 1000),
            (5, 10, 1),
            (10, 10, 1),
            (0, 10, 0),
        ];
        for (movetime, overhead, expected) in cases {
            let limits = Limits {
                movetime: Some(ms(movetime)),
                clock: clock_limits(60_000, 0, None).clock,
                ..Limits::default()
            };
            let tm = TimeManager::new(&limits, ms(overhead), 1);
            assert_eq!(tm.soft_limit(), None, "movetime {movetime}");
            assert_eq!(tm.hard_limit(), Some(ms(expected)), "movetime {movetime}");
            assert!(tm.hard_stop(ms(expected)));
            if expected > 0 {
                assert!(!tm.hard_stop(ms(expected - 1)));
                assert!(tm.start_next_iteration(ms(expected - 1), 8, -100, 1.0));
            }
        }
    }

    #[test]
    fn a_clock_shorter_than_the_movetime_wins() {
        // 500 ms asked for with 20 ms left on the clock: the clock's limits, not a loss
        // on time.
        let limits = Limits {
            movetime: Some(ms(500)),
            clock: clock_limits(20, 0, None).clock,
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, ms(10), 1);
        let by_clock = TimeManager::new(&clock_limits(20, 0, None), ms(10), 1);
        assert_eq!(tm, by_clock);
        assert!(tm.hard_limit().is_some_and(|hard| hard <= ms(10)), "{tm:?}");
    }

    /// Equal to a microsecond (the limits go through floating point).
    fn close(limit: Option<Duration>, expected: Duration) -> bool {
        limit.is_some_and(|limit| limit.abs_diff(expected) < Duration::from_micros(1))
    }

    #[test]
    fn typical_allocations() {
        // 10+0.1, first move: 9990/30 + 100 ms.
        let tm = manager(10_000, 100, None, 10);
        let soft = tm.soft_limit().expect("timed");
        assert!(close(Some(soft), ms(433)), "{soft:?}");
        // 30 moves planned: the hard limit is 1 + 30 / 10 soft limits.
        assert!(close(tm.hard_limit(), soft * 4));
        // 40 moves in 5 s.
        let tm = manager(5000, 0, Some(40), 10);
        assert!(close(tm.soft_limit(), Duration::from_micros(124_750)));
        // The last move before the time control uses most, not all, of the time.
        let tm = manager(1000, 0, Some(1), 0);
        assert!(close(tm.hard_limit(), ms(850)));
        // Overhead larger than the clock: move at once.
        let tm = manager(50, 0, None, 100);
        assert_eq!((tm.soft_limit(), tm.hard_limit()), (Some(MS), Some(MS)));
    }

    /// A Move Overhead of seconds (a bot's network lag) keeps back at most a second
    /// more in sudden death: 3+0 with 5 s of overhead still thinks for seconds.
    #[test]
    fn a_large_move_overhead_keeps_back_at_most_a_second() {
        let tm = manager(180_000, 0, None, 5000);
        let expected = (180_000.0 - 5000.0 - 1000.0) / 30.0;
        assert!(close(
            tm.soft_limit(),
            Duration::from_secs_f64(expected / 1000.0)
        ));
    }

    #[test]
    fn later_moves_get_more_of_the_clock() {
        let limits = clock_limits(60_000, 0, None);
        let early = TimeManager::new(&limits, ms(10), 1).soft_limit();
        let late = TimeManager::new(&limits, ms(10), 60).soft_limit();
        assert!(early < late);
    }

    #[test]
    fn iteration_scaling() {
        let tm = manager(60_000, 0, Some(30), 0);
        let soft = tm.soft_limit().expect("timed");
        // Neutral: stop right at the soft limit.
        assert!(tm.start_next_iteration(soft - MS, 3, 0, 0.5));
        assert!(!tm.start_next_iteration(soft, 3, 0, 0.5));
        // A settled search stops at half the soft limit...
        assert!(!tm.start_next_iteration(soft / 2 + MS, 8, 0, 0.5));
        // ...a falling score earns up to twice as long...
        assert!(tm.start_next_iteration(soft * 19 / 10, 3, 200, 0.5));
        // ...and a best move that took nearly all nodes ends it sooner.
        assert!(!tm.start_next_iteration(soft * 6 / 10, 3, 0, 0.95));
        // Nonsense fractions are neutral.
        assert!(tm.start_next_iteration(soft - MS, 3, 0, f64::NAN));
        // Everything in favour of continuing is still capped.
        assert!(!tm.start_next_iteration(soft * 5 / 2, 0, 10_000, 0.0));
    }

    #[test]
    fn limits_are_safe_over_a_grid_of_clocks() {
        let times = [
            0, 1, 5, 10, 11, 20, 50, 99, 100, 101, 150, 500, 1000, 2500, 5000, 10_000, 60_000,
            180_000, 600_000,
        ];
        let increments = [0, 10, 100, 1000, 5000];
        let moves_to_go = [None, Some(0), Some(1), Some(2), Some(5), Some(40)];
        let overheads = [0, 10, 100, 5000];
        let searches = [
            (0, 0, 0.5),
            (8, -500, 1.0),
            (0, 10_000, 0.0),
            (2, 30, f64::NAN),
        ];
        for time in times {
            for increment in increments {
                for mtg in moves_to_go {
                    for overhead in overheads {
                        for fullmove in [1, 30, 200] {
                            let limits = clock_limits(time, increment, mtg);
                            let tm = TimeManager::new(&limits, ms(overhead), fullmove);
                            let case = format!("{time}+{increment} mtg {mtg:?} ovh {overhead}");
                            let soft = tm.soft_limit().expect(&case);
                            let hard = tm.hard_limit().expect(&case);
                            assert!(MIN_LIMIT <= soft && soft <= hard, "{case}");
                            if time > overhead {
                                assert!(hard <= ms(time - overhead), "{case}: {hard:?}");
                            } else {
                                assert_eq!(hard, MIN_LIMIT, "{case}");
                            }
                            if time >= overhead + 10 && mtg.is_none_or(|m| m > 1) {
                                // At most 40% of the usable time (a microsecond for rounding).
                                let usable = ms(time - overhead);
                                let cap = usable.mul_f64(2.0 / 5.0) + Duration::from_micros(1);
                                assert!(hard <= cap, "{case}: {hard:?}");
                            }
                            for (stability, drop, fraction) in searches {
                                assert!(tm.start_next_iteration(
                                    Duration::ZERO,
                                    stability,
                                    drop,
                                    fraction
                                ));
                                for elapsed in [hard, hard + MS, hard * 3] {
                                    assert!(tm.hard_stop(elapsed), "{case}");
                                    assert!(
                                        !tm.start_next_iteration(
                                            elapsed, stability, drop, fraction
                                        ),
                                        "{case}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// How long a simulated search thinks, given its limits and a random number.
    type Usage = fn(&TimeManager, u64) -> Duration;

    /// Every search runs to its hard limit.
    fn always_hard(tm: &TimeManager, _: u64) -> Duration {
        tm.hard_limit().expect("timed")
    }

    /// Searches stop between half and two and a half soft limits; one in eight runs to
    /// the hard limit.
    fn mixed(tm: &TimeManager, random: u64) -> Duration {
        let (soft, hard) = (tm.soft_limit(), tm.hard_limit());
        let (soft, hard) = (soft.expect("timed"), hard.expect("timed"));
        let scaled = soft.mul_f64([0.5, 1.0, 1.5, 2.0, 2.5, 1.0, 0.7][random as usize % 7]);
        if random.is_multiple_of(8) {
            hard
        } else {
            scaled.min(hard)
        }
    }

    /// SplitMix64, for the simulated searches.
    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Plays `moves` moves of a `time`+`increment` game (or `time` per `period` moves)
    /// with the default 10 ms Move Overhead; each move takes what `usage` says plus
    /// `late` (the search noticing the limit late, and the GUI's lag). Panics on a loss
    /// on time; returns the least time left after a move.
    fn play(
        (time, increment, period): (u64, u64, Option<u32>),
        usage: Usage,
        late: Duration,
        moves: u32,
    ) -> Duration {
        let mut random = time ^ increment;
        let mut left = ms(time);
        let mut lowest = left;
        for number in 0..moves {
            let moves_to_go = period.map(|p| p - number % p);
            let limits = Limits {
                clock: Some(Clock {
                    time: left,
                    increment: ms(increment),
                    moves_to_go,
                }),
                ..Limits::default()
            };
            let tm = TimeManager::new(&limits, ms(10), 1 + number);
            let spent = usage(&tm, splitmix(&mut random)) + late;
            left = left.checked_sub(spent).unwrap_or_else(|| {
                panic!("{time}+{increment}/{period:?}: lost on time at move {number} with {left:?} left")
            });
            lowest = lowest.min(left);
            left += ms(increment);
            if moves_to_go == Some(1) {
                left += ms(time);
            }
        }
        lowest
    }

    #[test]
    fn no_time_forfeits_in_fast_games() {
        // Each search stops 1 ms late and the GUI lags 5 ms (half the Move Overhead).
        let late = ms(6);
        let bullet = (1000, 10, None);
        let blitz = (10_000, 100, None);
        let repeating = (5000, 0, Some(40));
        for game in [bullet, blitz, repeating] {
            play(game, mixed, late, 400);
        }
        // With an increment even the worst case holds: every search to the hard limit.
        for game in [bullet, blitz] {
            play(game, always_hard, late, 400);
        }
        // Lag just under the Move Overhead still leaves a positive clock.
        play(bullet, mixed, ms(9), 400);
    }

    /// Without an increment every move's lag comes off the clock for good; the overhead
    /// kept back pays for the quick moves of a long game's end. Games of 100 moves at
    /// 10+0 with 6 ms of lag a move, and of 150 at 60+0 and 5+0 and 120 at 1+0 with
    /// 3 ms, end with time left (with nothing kept back, 10+0 was lost at move 55).
    #[test]
    fn no_time_forfeits_in_long_games_without_increment() {
        play((10_000, 0, None), mixed, ms(6), 100);
        for game in [(60_000, 0, None), (5000, 0, None)] {
            play(game, mixed, ms(3), 150);
        }
        play((1000, 0, None), mixed, ms(3), 120);
        // An increment that does not pay for the Move Overhead is no increment.
        play((10_000, 5, None), mixed, ms(6), 100);
    }
}
