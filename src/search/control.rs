//! When the search must stop: `stop` from the GUI, the hard time limit, the node limit,
//! or another thread having stopped. Checked at every node, polled every few nodes.
//! The threads of one search also publish their node counts here, so that `info` lines
//! and the node limit count the nodes of all of them.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::signals::Signals;
use super::time::TimeManager;

/// How many nodes pass between two polls of the signal channel and the clock. At about
/// 1M nodes per second this is a poll every 64 µs, for about 1 ns of cost per node.
const POLL_INTERVAL: u64 = 64;

/// A node counter on its own cache line, so that threads publishing their counts do not
/// slow each other down.
#[repr(align(64))]
#[derive(Default)]
struct NodeSlot(AtomicU64);

/// What the threads of one search share: the stop flag, each thread's node count and the
/// tablebase hits of all of them.
pub struct SharedState {
    stop: AtomicBool,
    nodes: Vec<NodeSlot>,
    tbhits: AtomicU64,
}

impl SharedState {
    /// The shared state of a search on `threads` threads.
    pub fn new(threads: usize) -> SharedState {
        SharedState {
            stop: AtomicBool::new(false),
            nodes: (0..threads.max(1)).map(|_| NodeSlot::default()).collect(),
            tbhits: AtomicU64::new(0),
        }
    }

    /// Counts `hits` successful tablebase probes.
    pub fn add_tbhits(&self, hits: u64) {
        self.tbhits.fetch_add(hits, Ordering::Relaxed);
    }

    /// Tells every thread to stop.
    pub fn stop_all(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`SharedState::stop_all`] was called.
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The nodes published by every thread but `id`.
    fn others(&self, id: usize) -> u64 {
        self.nodes
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != id)
            .map(|(_, slot)| slot.0.load(Ordering::Relaxed))
            .sum()
    }
}

/// The stopping state of one search thread.
pub struct Control<'a> {
    /// Only the main thread listens to the GUI.
    signals: Option<&'a mut Signals>,
    /// Raised by the main thread to stop the helpers (and by anyone who stops).
    shared: &'a SharedState,
    /// This thread's slot in `shared`.
    id: usize,
    /// The other threads' nodes at the last poll.
    others_nodes: u64,
    pub time: TimeManager,
    node_limit: Option<u64>,
    stopped: bool,
}

impl<'a> Control<'a> {
    /// The control of thread `id` (0 is the main thread, the one given `signals`).
    pub fn new(
        signals: Option<&'a mut Signals>,
        shared: &'a SharedState,
        id: usize,
        time: TimeManager,
        node_limit: Option<u64>,
    ) -> Control<'a> {
        Control {
            signals,
            shared,
            id,
            others_nodes: 0,
            time,
            node_limit,
            stopped: false,
        }
    }

    /// Whether the search must unwind now rather than visit node number `nodes` (of this
    /// thread). The node limit counts all threads (exactly when there is one).
    #[inline]
    pub fn should_stop(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if self
            .node_limit
            .is_some_and(|limit| nodes + self.others_nodes > limit)
        {
            self.stop();
            return true;
        }
        if nodes.is_multiple_of(POLL_INTERVAL) {
            self.publish(nodes);
            self.poll();
        }
        self.stopped
    }

    /// Publishes this thread's node count and refreshes the others'.
    fn publish(&mut self, nodes: u64) {
        if self.shared.nodes.len() > 1 {
            self.shared.nodes[self.id].0.store(nodes, Ordering::Relaxed);
            self.others_nodes = self.shared.others(self.id);
        }
    }

    /// The nodes of all threads, counting this one's as `own`.
    pub fn total_nodes(&self, own: u64) -> u64 {
        own + self.shared.others(self.id)
    }

    /// Counts one successful tablebase probe of this thread.
    #[inline]
    pub fn count_tbhit(&self) {
        self.shared.add_tbhits(1);
    }

    /// The tablebase hits of every thread of the search so far.
    pub fn tbhits(&self) -> u64 {
        self.shared.tbhits.load(Ordering::Relaxed)
    }

    /// Whether a stop has been decided (without polling).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Stops this thread and the others.
    pub fn stop(&mut self) {
        self.stopped = true;
        self.shared.stop_all();
    }

    /// Whether `stop` (or `quit`) has come from the GUI during this search, rather than a
    /// limit ending it (main thread only: helpers never hear the GUI).
    pub fn stop_requested(&mut self) -> bool {
        self.signals.as_mut().is_some_and(|s| s.stop_requested())
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

    /// Time since the clock started; zero on helper threads.
    pub fn elapsed(&self) -> std::time::Duration {
        self.clock_start().map(|t| t.elapsed()).unwrap_or_default()
    }

    /// Time since the `go`, pondering included (zero on helper threads): what the soft
    /// limit is judged by, so that thinking done while pondering counts.
    pub fn elapsed_since_go(&self) -> std::time::Duration {
        self.signals
            .as_ref()
            .map(|s| s.go_start().elapsed())
            .unwrap_or_default()
    }

    /// Makes a later `ponderhit` stop the search at once (main thread only).
    pub fn stop_on_ponderhit(&mut self) {
        if let Some(signals) = self.signals.as_mut() {
            signals.stop_on_ponderhit();
        }
    }

    fn poll(&mut self) {
        if self.shared.stop.load(Ordering::Relaxed) {
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
