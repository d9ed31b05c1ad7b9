//! How `annotate` shares its searches among `--threads` workers: each game's positions
//! are cut into units (one per game when there are at least as many games as threads,
//! else each game into a few contiguous runs of positions), and each worker takes the
//! next unit, searches its positions in order with its own hash table, cleared first,
//! and sends the results back. A unit's searches depend only on the unit and the budget,
//! so a run gives the same output every time with the same `--threads` (and, with
//! `--nodes` or `--depth`, on any machine).

use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crossbeam_channel::Sender;

use super::searches::{search_range, Budget, Searched};
use crate::position::Game;
use crate::search::threads;
use crate::search::tt::TranspositionTable;

/// The fewest positions a unit of a game cut into several has.
const MIN_UNIT: usize = 10;

/// Positions `range` of game `game` (an index into the games searched).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub game: usize,
    pub range: Range<usize>,
}

/// The units of games of `sizes` positions each for `threads` workers, in game order.
pub fn units(sizes: &[usize], threads: usize) -> Vec<Unit> {
    let cuts = if sizes.len() >= threads {
        1
    } else {
        threads.div_ceil(sizes.len().max(1))
    };
    let mut units = Vec::new();
    for (game, &size) in sizes.iter().enumerate() {
        let pieces = cuts.min(size.div_ceil(MIN_UNIT)).max(1);
        let share = size.div_ceil(pieces).max(1);
        let mut start = 0;
        while start < size {
            let end = (start + share).min(size);
            units.push(Unit {
                game,
                range: start..end,
            });
            start = end;
        }
    }
    units
}

/// A finished unit: its index and its searches, or `None` when the search failed.
pub type Done = (usize, Option<Vec<Searched>>);

/// Searches `units` of `games` (each a game's positions) on `workers` threads with
/// `hash_mb` MiB of hash each, sending each finished unit to `done` and counting the
/// positions searched in `positions`. Returns once every unit is done.
pub fn search_units(
    games: &[Vec<Game>],
    units: &[Unit],
    budget: &Budget,
    workers: usize,
    hash_mb: usize,
    positions: &AtomicU64,
    done: Sender<Done>,
) -> std::io::Result<()> {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for worker in 0..workers.clamp(1, units.len().max(1)) {
            let done = done.clone();
            let next = &next;
            threads::spawn_scoped(scope, format!("annotate-{worker}"), move || {
                let tt = TranspositionTable::new(hash_mb);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(unit) = units.get(index) else {
                        break;
                    };
                    let game = &games[unit.game];
                    let searched = catch_unwind(AssertUnwindSafe(|| {
                        search_range(game, unit.range.clone(), budget, &tt, || {
                            positions.fetch_add(1, Ordering::Relaxed);
                        })
                    }));
                    if done.send((index, searched.ok())).is_err() {
                        break;
                    }
                }
            })?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(units: &[Unit]) -> Vec<(usize, Range<usize>)> {
        units.iter().map(|u| (u.game, u.range.clone())).collect()
    }

    #[test]
    fn one_unit_per_game_when_games_outnumber_threads() {
        assert_eq!(ranges(&units(&[5, 81], 1)), [(0, 0..5), (1, 0..81)]);
        assert_eq!(
            ranges(&units(&[5, 81, 3], 2)),
            [(0, 0..5), (1, 0..81), (2, 0..3)]
        );
    }

    #[test]
    fn a_lone_game_is_cut_for_the_threads() {
        assert_eq!(ranges(&units(&[81], 2)), [(0, 0..41), (0, 41..81)]);
        assert_eq!(
            ranges(&units(&[81], 3)),
            [(0, 0..27), (0, 27..54), (0, 54..81)]
        );
        // Short games are not cut below MIN_UNIT positions.
        assert_eq!(ranges(&units(&[12], 4)), [(0, 0..6), (0, 6..12)]);
        assert_eq!(ranges(&units(&[7], 4)), [(0, 0..7)]);
        assert_eq!(
            ranges(&units(&[81, 1], 4)),
            [(0, 0..41), (0, 41..81), (1, 0..1)]
        );
    }
}
