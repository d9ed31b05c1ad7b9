//! The progress line of `annotate` on stderr, drawn only when stderr is a terminal:
//! games and positions done, positions per second and the time left. Messages (a bad
//! game) are printed above it.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often the line is redrawn at most.
const REDRAW_EVERY: Duration = Duration::from_millis(250);

/// The progress of one run.
pub struct Progress {
    terminal: bool,
    games: usize,
    positions: u64,
    started: Instant,
    drawn: Option<Instant>,
}

impl Progress {
    /// A progress line for `games` games of `positions` positions in all.
    pub fn new(games: usize, positions: u64) -> Progress {
        Progress {
            terminal: std::io::stderr().is_terminal(),
            games,
            positions,
            started: Instant::now(),
            drawn: None,
        }
    }

    /// Redraws the line (at most every [`REDRAW_EVERY`]) after `games` games and
    /// `positions` positions are done.
    pub fn update(&mut self, games: usize, positions: u64) {
        if !self.terminal || self.drawn.is_some_and(|at| at.elapsed() < REDRAW_EVERY) {
            return;
        }
        self.drawn = Some(Instant::now());
        let seconds = self.started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            positions as f64 / seconds
        } else {
            0.0
        };
        let eta = if rate > 0.0 {
            clock(self.positions.saturating_sub(positions) as f64 / rate)
        } else {
            "-".to_string()
        };
        eprint!(
            "\r\x1b[Kannotate: game {games}/{}, {positions}/{} positions, {rate:.1} positions/s, ETA {eta}",
            self.games, self.positions
        );
        let _ = std::io::stderr().flush();
    }

    /// Prints `message` on a line of its own (above the progress line in a terminal).
    pub fn message(&mut self, message: &str) {
        if self.terminal {
            eprint!("\r\x1b[K");
            self.drawn = None;
        }
        eprintln!("{message}");
    }

    /// Replaces the line by the totals (in a terminal).
    pub fn finish(&mut self, games: usize, positions: u64) {
        if self.terminal {
            let seconds = self.started.elapsed().as_secs_f64();
            eprintln!(
                "\r\x1b[Kannotate: {games} games, {positions} positions in {seconds:.1} s ({:.1} positions/s)",
                positions as f64 / seconds.max(1e-9)
            );
        }
    }
}

/// `1:05` for 65 seconds, `1:02:05` past an hour.
fn clock(seconds: f64) -> String {
    let total = seconds.round() as u64;
    let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clock_reads_as_minutes_and_hours() {
        assert_eq!(super::clock(65.2), "1:05");
        assert_eq!(super::clock(3725.0), "1:02:05");
        assert_eq!(super::clock(0.0), "0:00");
    }
}
