//! The long-lived search thread: it takes one job at a time over a channel. A search
//! waits for `stop`/`ponderhit` where the protocol says it must and prints exactly one
//! `bestmove`; `go perft`, `bench` and `genfens` run here too, so that the input loop stays free to
//! answer `isready` and a `stop` can end them.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use std::num::NonZero;
use std::sync::atomic::{AtomicBool, Ordering};

use cozy_chess::Board;
use crossbeam_channel::{bounded, unbounded, Receiver, RecvTimeoutError, Sender, TryRecvError};
use protocol::{Response, UciMove};

use super::bench;
use super::history::HistoryStore;
use super::signals::{Signal, Signals};
use super::tt::TranspositionTable;
use super::{search, SearchJob, SearchOutcome};
use crate::nnue::Network;
use crate::output::Output;
use crate::perft;
use crate::position::{legal_moves, to_uci};

/// A job for the search thread besides a search.
pub enum Task {
    /// `go perft`: count the leaves below `board` to `depth`, divided by root move.
    Perft {
        board: Board,
        depth: u32,
        chess960: bool,
    },
    /// `bench`: the fixed positions to `depth` (the default when `None`).
    Bench {
        depth: Option<u32>,
        network: Option<Arc<Network>>,
    },
    /// Any other fixed amount of work (`genfens`), given by the engine: it prints its own
    /// report and asks the signals whether to stop early.
    Job(Job),
}

/// The work of a [`Task::Job`]: it gets the signals of `stop` and the output.
pub type Job = Box<dyn FnOnce(&mut Signals, &Output) + Send>;

/// What the search thread is asked to do.
enum Work {
    Search {
        job: Box<SearchJob>,
        tt: Arc<TranspositionTable>,
        memory: Arc<HistoryStore>,
        ponder: bool,
    },
    Task(Task),
}

/// One job, as handed to the search thread.
struct Request {
    work: Work,
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
        self.wait_unless(|| false);
    }

    /// Blocks until the search has printed its `bestmove`, or until `give_up` says so
    /// (asked every tenth of a second).
    pub fn wait_unless(&mut self, give_up: impl Fn() -> bool) {
        while !self.finished {
            match self
                .done
                .recv_timeout(std::time::Duration::from_millis(100))
            {
                Err(RecvTimeoutError::Timeout) if give_up() => return,
                Err(RecvTimeoutError::Timeout) => {}
                Ok(()) | Err(RecvTimeoutError::Disconnected) => self.finished = true,
            }
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
        let fixed_work = !ponder && job.limits.is_fixed_work();
        let work = Work::Search {
            job: Box::new(job),
            tt,
            memory,
            ponder,
        };
        self.send(work, started, fixed_work)
    }

    /// Starts `perft` or `bench`. Both are a fixed amount of work: at the end of input
    /// they run to their end.
    pub fn start_task(&self, task: Task) -> Option<ActiveSearch> {
        self.send(Work::Task(task), Instant::now(), true)
    }

    fn send(&self, work: Work, started: Instant, fixed_work: bool) -> Option<ActiveSearch> {
        let (signal_tx, signal_rx) = unbounded();
        let (done_tx, done_rx) = bounded(1);
        let request = Request {
            work,
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
    match request.work {
        Work::Search {
            job,
            tt,
            memory,
            ponder,
        } => {
            let signals = Signals::new(request.signals, ponder, request.started);
            run_search(&job, &tt, &memory, signals, request.done, out);
        }
        Work::Task(task) => {
            let result = panic::catch_unwind(AssertUnwindSafe(|| {
                run_task(task, request.signals, out);
            }));
            if result.is_err() {
                out.error("the job panicked and was abandoned");
            }
            let _ = request.done.send(());
        }
    }
}

/// Runs `perft`, `bench` or a job, printing its report; a `stop` on `signals` cuts it short.
fn run_task(task: Task, signals: Receiver<Signal>, out: &Output) {
    match task {
        Task::Perft {
            board,
            depth,
            chess960,
        } => {
            let threads = std::thread::available_parallelism().map_or(1, NonZero::get);
            let stop = AtomicBool::new(false);
            let (finished_tx, finished_rx) = bounded::<()>(1);
            let report = std::thread::scope(|scope| {
                // The counting threads cannot watch the channel: this one raises the
                // flag they check when `stop` arrives (or the engine goes away).
                scope.spawn(|| loop {
                    crossbeam_channel::select! {
                        recv(signals) -> signal => match signal {
                            Ok(Signal::PonderHit(_)) => continue,
                            Ok(Signal::Stop) | Err(_) => {
                                stop.store(true, Ordering::Relaxed);
                                break;
                            }
                        },
                        recv(finished_rx) -> _ => break,
                    }
                });
                let report = perft::divide_report_until(&board, depth, chess960, threads, &stop);
                drop(finished_tx);
                report
            });
            out.line(&report);
        }
        Task::Bench { depth, network } => {
            let mut signals = Signals::new(signals, false, Instant::now());
            bench::run_until(depth, network.as_ref(), &mut signals, out);
        }
        Task::Job(job) => job(&mut Signals::new(signals, false, Instant::now()), out),
    }
}

/// Runs a search and answers it with its one `bestmove`.
fn run_search(
    job: &SearchJob,
    tt: &TranspositionTable,
    memory: &HistoryStore,
    mut signals: Signals,
    done: Sender<()>,
    out: &Output,
) {
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        search(job, tt, memory, &mut signals, out)
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
            let _ = done.send(());
        },
        &Response::BestMove { best, ponder },
    );
}
