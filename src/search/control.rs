//! When the search must stop: `stop` from the GUI, the hard time limit, the node limit,
//! or another thread having stopped. Checked at every node, polled every few nodes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::signals::Signals;
use super::time::TimeManager;

/// How many nodes pass between two polls of the signal channel and the clock. At about
/// 1M nodes per second this is a poll every 64 µs, for about 1 ns of cost per node.
const POLL_INTERVAL: u64 = 64;

/// The stopping state of one search thread.
pub struct Control<'a> {
    /// Only the main thread listens to the GUI.
    signals: Option<&'a mut Signals>,
    /// Raised by the main thread to stop the helpers (and by anyone who stops).
    shared_stop: &'a AtomicBool,
    pub time: TimeManager,
    node_limit: Option<u64>,
    stopped: bool,
}

impl<'a> Control<'a> {
    pub fn new(
        signals: Option<&'a mut Signals>,
        shared_stop: &'a AtomicBool,
        time: TimeManager,
        node_limit: Option<u64>,
    ) -> Control<'a> {
        Control {
            signals,
            shared_stop,
            time,
            node_limit,
            stopped: false,
        }
    }

    /// Whether the search must unwind now rather than visit node number `nodes`.
    #[inline]
    pub fn should_stop(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if self.node_limit.is_some_and(|limit| nodes > limit) {
            self.stop();
            return true;
        }
        if nodes.is_multiple_of(POLL_INTERVAL) {
            self.poll();
        }
        self.stopped
    }

    /// Whether a stop has been decided (without polling).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Stops this thread and the others.
    pub fn stop(&mut self) {
        self.stopped = true;
        self.shared_stop.store(true, Ordering::Relaxed);
    }

    /// Whether the clock is not yet running (`go ponder` before `ponderhit`).
    pub fn pondering(&mut self) -> bool {
        self.signals.as_mut().is_some_and(|s| {
            s.stop_requested();
            s.pondering()
        })
    }

    /// When the clock started (the `go`, or the `ponderhit`).
    pub fn clock_start(&self) -> Option<Instant> {
        self.signals.as_ref().map(|s| s.clock_start())
    }

    /// Time since the clock started; zero while pondering or on helper threads.
    pub fn elapsed(&self) -> std::time::Duration {
        self.clock_start().map(|t| t.elapsed()).unwrap_or_default()
    }

    fn poll(&mut self) {
        if self.shared_stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        let Some(signals) = self.signals.as_mut() else {
            return;
        };
        let stop_requested = signals.stop_requested();
        let over_time =
            !signals.pondering() && self.time.hard_stop(signals.clock_start().elapsed());
        if stop_requested || over_time {
            self.stop();
        }
    }
}
