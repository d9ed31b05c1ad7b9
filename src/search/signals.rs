//! How the input loop talks to a running search: `stop` and `ponderhit` arrive over a
//! crossbeam channel, which the search polls (non-blocking) every few nodes.

use std::time::Instant;

use crossbeam_channel::{Receiver, TryRecvError};

/// A message to the running search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// Stop as soon as possible and report the best move so far.
    Stop,
    /// The opponent played the expected move: the ponder search becomes a timed search
    /// whose clock starts at the given instant (when the `ponderhit` arrived).
    PonderHit(Instant),
}

/// The search's side of the signal channel, with what the signals have told it so far.
pub struct Signals {
    receiver: Receiver<Signal>,
    stopped: bool,
    pondering: bool,
    /// When the `go` arrived.
    go_start: Instant,
    /// When our clock started: the `go`, or the `ponderhit`.
    clock_start: Instant,
    /// Whether a `ponderhit` is to stop the search at once: set while pondering, when
    /// the time spent since the `go` would already have ended the search on a clock.
    stop_on_ponderhit: bool,
}

impl Signals {
    /// `pondering` is true for `go ponder`; `started` is when the `go` arrived.
    pub fn new(receiver: Receiver<Signal>, pondering: bool, started: Instant) -> Signals {
        Signals {
            receiver,
            stopped: false,
            pondering,
            go_start: started,
            clock_start: started,
            stop_on_ponderhit: false,
        }
    }

    /// Applies any pending signals without blocking; true once `stop` has arrived (or
    /// the sending side has gone, which means the engine is shutting down).
    pub fn stop_requested(&mut self) -> bool {
        loop {
            match self.receiver.try_recv() {
                Ok(signal) => self.apply(signal),
                Err(TryRecvError::Empty) => return self.stopped,
                Err(TryRecvError::Disconnected) => {
                    self.stopped = true;
                    return true;
                }
            }
        }
    }

    /// Blocks until `stop` (or, when pondering, `ponderhit`) arrives: used when a search
    /// that must not end on its own (`go infinite`, `go ponder`) has finished early.
    pub fn wait_for_release(&mut self, infinite: bool) {
        while !self.stopped && (infinite || self.pondering) {
            match self.receiver.recv() {
                Ok(signal) => self.apply(signal),
                Err(_) => self.stopped = true,
            }
        }
    }

    /// Whether the search is still pondering (its clock not yet running).
    pub fn pondering(&self) -> bool {
        self.pondering
    }

    /// When the clock started: the `go`, or the `ponderhit` for a ponder search.
    pub fn clock_start(&self) -> Instant {
        self.clock_start
    }

    /// When the `go` arrived: the start of the thinking, pondering included.
    pub fn go_start(&self) -> Instant {
        self.go_start
    }

    /// Makes a later `ponderhit` stop the search at once, as `stop` would.
    pub fn stop_on_ponderhit(&mut self) {
        self.stop_on_ponderhit = true;
    }

    fn apply(&mut self, signal: Signal) {
        match signal {
            Signal::Stop => self.stopped = true,
            Signal::PonderHit(at) => {
                if self.pondering {
                    self.pondering = false;
                    self.clock_start = at;
                    self.stopped |= self.stop_on_ponderhit;
                }
            }
        }
    }
}
