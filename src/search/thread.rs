//! The long-lived search thread: it takes one job at a time over a channel, runs the
//! search, waits for `stop`/`ponderhit` where the protocol says it must, and prints
//! exactly one `bestmove` per job.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::{bounded, unbounded, Receiver, Sender, TryRecvError};
use protocol::{Response, UciMove};

use super::history::HistoryStore;
use super::signals::{Signal, Signals};
use super::tt::TranspositionTable;
use super::{search, SearchJob, SearchOutcome};
use crate::output::Output;
use crate::position::{legal_moves, to_uci};

/// One `go`, as handed to the search thread.
struct Request {
    job: SearchJob,
    tt: Arc<TranspositionTable>,
    memory: Arc<HistoryStore>,
    ponder: bool,
    started: Instant,
    signals: Receiver<Signal>,
    done: Sender<()>,
}

/// The input loop's handle on a search that has been started and has not yet printed
/// its `bestmove`.
pub struct ActiveSearch {
    signals: Sender<Signal>,
    done: Receiver<()>,
    fixed_work: bool,
    finished: bool,
}

impl ActiveSearch {
    /// Whether the search has printed its `bestmove`.
    pub fn is_finished(&mut self) -> bool {
        if !self.finished {
            self.finished = !matches!(self.done.try_recv(), Err(TryRecvError::Empty));
        }
        self.finished
    }

    /// Sends a signal; a search that has already ended ignores it.
    pub fn signal(&self, signal: Signal) {
        let _ = self.signals.send(signal);
    }

    /// Blocks until the search has printed its `bestmove`.
    pub fn wait(&mut self) {
        if !self.finished {
            let _ = self.done.recv();
            self.finished = true;
        }
    }

    /// The channel on which the search tells its end: one message just before its
    /// `bestmove` is printed (then the channel closes). Waiting on it with a
    /// `crossbeam_channel::Select` must not take the message: [`Self::is_finished`] does.
    pub fn end(&self) -> &Receiver<()> {
        &self.done
    }

    /// Whether the search asked for a fixed amount of work (depth, nodes, mate,
    /// movetime; not a clock, not pondering).
    pub fn is_fixed_work(&self) -> bool {
        self.fixed_work
    }
}

/// The search thread and the channel that feeds it.
pub struct SearchThread {
    jobs: Option<Sender<Request>>,
    handle: Option<JoinHandle<()>>,
}

impl SearchThread {
    pub fn spawn(out: Arc<Output>) -> std::io::Result<SearchThread> {
        let (jobs, inbox) = unbounded::<Request>();
        let handle = super::threads::spawn("search".into(), move || {
            for request in inbox {
                run(request, &out);
            }
        })?;
        Ok(SearchThread {
            jobs: Some(jobs),
            handle: Some(handle),
        })
    }

    /// Starts a search; `started` is when the `go` arrived (the clock's start).
    pub fn start(
        &self,
        job: SearchJob,
        tt: Arc<TranspositionTable>,
        memory: Arc<HistoryStore>,
        ponder: bool,
        started: Instant,
    ) -> Option<ActiveSearch> {
        let (signal_tx, signal_rx) = unbounded();
        let (done_tx, done_rx) = bounded(1);
        let fixed_work = !ponder && job.limits.is_fixed_work();
        let request = Request {
            job,
            tt,
            memory,
            ponder,
            started,
            signals: signal_rx,
            done: done_tx,
        };
        self.jobs.as_ref()?.send(request).ok()?;
        Some(ActiveSearch {
            signals: signal_tx,
            done: done_rx,
            fixed_work,
            finished: false,
        })
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        // Closing the job channel ends the thread's loop.
        self.jobs = None;
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

fn run(request: Request, out: &Output) {
    let mut signals = Signals::new(request.signals, request.ponder, request.started);
    let job = &request.job;
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        search(job, &request.tt, &request.memory, &mut signals, out)
    }));
    let outcome = result.unwrap_or_else(|_| {
        log::error!("the search panicked; answering with the first legal move");
        SearchOutcome {
            best: legal_moves(&job.game.board).first().copied(),
            ..SearchOutcome::default()
        }
    });
    signals.wait_for_release(job.limits.infinite);
    let board = &job.game.board;
    let chess960 = job.settings.chess960;
    let best = outcome
        .best
        .map_or(UciMove::Null, |mv| to_uci(board, mv, chess960));
    let ponder = outcome.best.zip(outcome.ponder).and_then(|(best, reply)| {
        let mut after = board.clone();
        after.try_play(best).ok()?;
        after
            .is_legal(reply)
            .then(|| to_uci(&after, reply, chess960))
    });
    // The facade learns that the search is over before the GUI can read `bestmove`, so
    // a `go` sent straight after it is accepted; holding the output lock meanwhile keeps
    // a `readyok` from overtaking the `bestmove`.
    out.send_after(
        || {
            let _ = request.done.send(());
        },
        &Response::BestMove { best, ponder },
    );
}
