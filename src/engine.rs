//! The engine facade: owns the position, the options, the hash table and the search
//! thread, and carries out each parsed command. The input loop only parses and calls
//! [`Engine::execute`]; nothing here reads stdin.
//!
//! # Commands that wait their turn
//!
//! Commands are carried out in the order they arrive, as if each waited for the one before it.
//! A command that needs the engine idle (`go`, `ucinewgame`, `bench`, `perft`, `genfens`, a
//! change of `Hash`, `Clear Hash` or `SyzygyPath`) and arrives while a search is running waits
//! in a queue until that search has printed its `bestmove`, and so does every command after it.
//! `isready`, `stop`, `ponderhit` and `quit` never wait (but a `ponderhit` whose `go ...
//! ponder` is still waiting waits right behind it, so that it reaches that search rather than
//! the work before it): `isready` is answered at once; `stop` ends the running search and every
//! search waiting behind it (each still answers with one `bestmove`, at once, and the other
//! waiting commands run in order), so that no `go infinite` in the queue is left without a
//! `stop` to end it; `quit` ends them as `stop` does (so every `go` read before it has its
//! `bestmove`) and then the program. So `go depth 8` followed at once by `position ...` and `go
//! depth 8` gives two answers, for the two positions.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use cozy_chess::Color;
use crossbeam_channel::Receiver;
use protocol::{Command, GenfensParams, GoParams, OptionSpec, ParseError, Response, UciMove};

use crate::book::Book;
use crate::nnue::{self, Network};
use crate::opening::genfens::{Ending as GenfensEnding, Genfens};
use crate::options::{self, Change, Options};
use crate::output::Output;
use crate::position::{from_uci, to_uci, Game};
use crate::rng::SplitMix64;
use crate::search::history::HistoryStore;
use crate::search::signals::Signal;
use crate::search::strength::Strength;
use crate::search::thread::{ActiveSearch, SearchThread, Task};
use crate::search::tt::TranspositionTable;
use crate::search::{Clock, Limits, SearchJob, Settings};
use crate::tablebase::{Probing, Tablebases};
use crate::{display, eval, perft};

/// Whether the input loop should go on after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Engine {
    out: Arc<Output>,
    game: Game,
    /// Whether the game was set up with `UCI_Chess960` on: its moves are read and written
    /// in that notation until the next `position`, whatever the option says meanwhile.
    game_chess960: bool,
    options: Options,
    tt: Arc<TranspositionTable>,
    /// The search threads' move-ordering statistics, kept between the moves of a game.
    histories: Arc<HistoryStore>,
    search_thread: SearchThread,
    active: Option<ActiveSearch>,
    /// Lines that arrived while a search was running and wait for it to end.
    waiting: VecDeque<Waiting>,
    debug: bool,
    /// The Polyglot book named by `BookFile`, if one is loaded.
    book: Option<Book>,
    /// The network the searches evaluate with (`EvalFile`, or the one built in); `None`
    /// for the hand-crafted evaluation.
    network: Option<Arc<Network>>,
    /// The Syzygy tables named by `SyzygyPath`, if any are loaded.
    tablebases: Option<Tablebases>,
    /// Draws the book moves and seeds the weakened play of `UCI_LimitStrength`; seeded
    /// from the clock so that games vary.
    rng: SplitMix64,
    /// The answer to `help`, handed in by the binary (it lists the tools, which the engine
    /// does not reach).
    help: String,
}

impl Engine {
    pub fn new(out: Arc<Output>, help: String) -> std::io::Result<Engine> {
        let options = Options::default();
        Ok(Engine {
            search_thread: SearchThread::spawn(Arc::clone(&out))?,
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            histories: Arc::new(HistoryStore::new()),
            out,
            game: Game::default(),
            game_chess960: false,
            options,
            active: None,
            waiting: VecDeque::new(),
            debug: false,
            book: None,
            network: nnue::embedded(),
            tablebases: None,
            rng: SplitMix64::new(clock_seed()),
            help,
        })
    }

    /// Carries out one command now, or queues it behind the running search (see the
    /// module doc). Rejected commands print `info string error: ...` and change nothing.
    pub fn execute(&mut self, command: Command) -> Flow {
        if self.debug {
            log::debug!("command: {command:?}");
        }
        // `isready now` is still `isready` (a GUI waits for the answer): the stray token
        // is reported with the command, which jumps the queue like its plain form.
        let command = match command {
            Command::Ignoring { command, token } => {
                self.out.error(&format!(
                    "{command}: unexpected token {} ignored",
                    protocol::quote(&token)
                ));
                *command
            }
            command => command,
        };
        let received = Instant::now();
        // A `ponderhit` answers the latest `go ... ponder`: when that search is still
        // waiting its turn (behind a search, `perft` or `bench`), the `ponderhit` waits
        // right behind it, instead of reaching the running work and being lost.
        if matches!(command, Command::PonderHit) {
            if let Some(at) = self.waiting.iter().rposition(is_waiting_ponder) {
                self.waiting
                    .insert(at + 1, Waiting::Command(command, received));
                return Flow::Continue;
            }
        }
        let jumps_queue = matches!(
            command,
            Command::IsReady | Command::Stop | Command::PonderHit | Command::Quit
        );
        if !jumps_queue
            && (!self.waiting.is_empty() || (needs_idle(&command) && self.running().is_some()))
        {
            self.waiting.push_back(Waiting::Command(command, received));
            return Flow::Continue;
        }
        let flow = self.carry_out(command, received);
        self.run_waiting();
        flow
    }

    /// The channel that tells the end of the running search, while commands wait for
    /// it; the input loop listens to it besides stdin.
    pub fn search_end(&self) -> Option<&Receiver<()>> {
        if self.waiting.is_empty() {
            return None;
        }
        self.active.as_ref().map(ActiveSearch::end)
    }

    /// Carries out the waiting commands, in order, as far as the engine allows: up to one
    /// that needs the engine idle while a search is running.
    pub fn run_waiting(&mut self) {
        while let Some(next) = self.waiting.front() {
            if let Waiting::Command(command, _) = next {
                if needs_idle(command) && self.running().is_some() {
                    return;
                }
            }
            match self.waiting.pop_front() {
                Some(Waiting::Command(command, received)) => {
                    self.carry_out(command, received);
                }
                Some(Waiting::Unparsed(error)) => self.out.error(&error),
                None => {}
            }
        }
    }

    fn carry_out(&mut self, command: Command, received: Instant) -> Flow {
        match command {
            Command::Uci => self.identify(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.send(&Response::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register(_) => self.out.info_string("no registration needed"),
            Command::UciNewGame => self.new_game(),
            Command::Position { start, moves } => {
                match Game::from_command(&start, &moves, self.options.chess960) {
                    Ok((game, note)) => {
                        if let Some(note) = note {
                            self.out.error(&note);
                        }
                        self.game = game;
                        self.game_chess960 = self.options.chess960;
                    }
                    Err(error) => self.out.error(&error.to_string()),
                }
            }
            Command::Go(params) => self.go(params, received),
            Command::Stop => self.run_out_waiting(false),
            Command::PonderHit => {
                if let Some(active) = self.running() {
                    active.signal(Signal::PonderHit(received));
                }
            }
            Command::Quit => {
                self.run_out_waiting(false);
                return Flow::Quit;
            }
            Command::Display => self
                .out
                .line(&display::board(&self.game.board, self.game_chess960)),
            Command::Help => self.out.line(&self.help),
            // Unwrapped by `execute`; carried out the same way if it ever arrives here.
            Command::Ignoring { command, .. } => return self.carry_out(*command, received),
            Command::Eval => self.out.line(&match &self.evaluation() {
                Some(network) => nnue::report(network, &self.game.board),
                None => eval::report(&self.game.board),
            }),
            Command::Bench { depth } => self.start_task(Task::Bench {
                depth,
                network: self.evaluation(),
            }),
            Command::Genfens(params) => self.genfens(&params),
            Command::Perft { depth } => {
                if depth > perft::MAX_DEPTH {
                    self.out.error(&format!(
                        "perft depth {depth} is beyond the maximum of {}",
                        perft::MAX_DEPTH
                    ));
                    return Flow::Continue;
                }
                self.start_task(Task::Perft {
                    board: self.game.board.clone(),
                    depth,
                    chess960: self.game_chess960,
                });
            }
        }
        Flow::Continue
    }

    /// Reports a line that could not be parsed, in its turn: after the commands that
    /// wait, if any do.
    pub fn report_error(&mut self, text: &str) {
        if self.waiting.is_empty() {
            self.out.error(text);
        } else {
            self.waiting.push_back(Waiting::Unparsed(text.to_string()));
        }
    }

    /// End of input: a search for a fixed amount of work (depth, nodes, mate, movetime)
    /// may finish, so that `printf 'go depth 12\n' | cutoff` prints its result, unless
    /// its output can no longer be written (the reader has gone); any other search (a
    /// clock, `infinite`, `ponder`) is stopped at once. The waiting commands then run
    /// the same way, until none is left.
    pub fn finish(&mut self) {
        self.run_out_waiting(true);
    }

    /// Ends the running search and runs every waiting command, stopping each search
    /// they start as soon as it has begun, except, with `finish_fixed_work`, one for a
    /// fixed amount of work, which is allowed to end by itself.
    fn run_out_waiting(&mut self, finish_fixed_work: bool) {
        let out = Arc::clone(&self.out);
        loop {
            if let Some(active) = self.running() {
                if finish_fixed_work && active.is_fixed_work() {
                    active.wait_unless(|| out.is_closed());
                }
            }
            self.stop();
            self.run_waiting();
            if self.active.is_none() {
                return;
            }
        }
    }

    fn identify(&self) {
        self.out.send(&Response::Id {
            name: format!("Cutoff {}", env!("CARGO_PKG_VERSION")),
            author: "the Cutoff developers".to_string(),
        });
        for spec in options::specs() {
            self.out.send(&Response::Option(spec));
        }
        self.out.send(&Response::UciOk);
    }

    /// The declared options (for tools and tests).
    pub fn option_specs() -> Vec<OptionSpec> {
        options::specs()
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(Change::Stored) => {}
            Ok(Change::ResizeHash) => {
                let requested = self.options.hash_mb;
                // The old table goes first, so that its memory can hold the new one (an
                // equal size under a memory limit would otherwise find only the rest).
                self.tt = Arc::new(TranspositionTable::new(0));
                self.tt = Arc::new(TranspositionTable::new(requested));
                // A GUI shows `info string` lines, not stderr: say when memory ran short.
                let allocated = self.tt.megabytes();
                if allocated < requested {
                    self.out.info_string(&format!(
                        "not enough memory for a {requested} MiB hash table; using {allocated} MiB"
                    ));
                }
            }
            Ok(Change::ClearHash) => {
                self.tt.clear();
                self.histories.clear();
            }
            Ok(Change::OpenBook(path)) => self.open_book(path),
            Ok(Change::LoadNetwork(path)) => self.load_network(path),
            Ok(Change::LoadTablebases(path)) => self.load_tablebases(path),
            Err(error) => self.out.error(&error.to_string()),
        }
    }

    /// Loads the book at `path` (an empty path unloads it); a file that cannot be read or
    /// is no book is refused, and the old book stays.
    fn open_book(&mut self, path: String) {
        if path.is_empty() {
            self.book = None;
        } else {
            match Book::open(&path) {
                Ok(book) => {
                    self.out
                        .info_string(&format!("book {path}: {} entries", book.len()));
                    self.book = Some(book);
                }
                Err(error) => {
                    self.out.error(&error.to_string());
                    return;
                }
            }
        }
        self.options.book_file = path;
    }

    /// The network searches evaluate with: the loaded one unless `UseNNUE` is off; `None`
    /// means the hand-crafted evaluation.
    fn evaluation(&self) -> Option<Arc<Network>> {
        self.network.clone().filter(|_| self.options.use_nnue)
    }

    /// Loads the network at `path` (an empty path returns to the built-in evaluation); a
    /// file that cannot be read or is no valid network is refused, and the old one stays.
    fn load_network(&mut self, path: String) {
        if path.is_empty() {
            self.network = nnue::embedded();
        } else {
            let loaded = nnue::file::read_file(std::path::Path::new(&path))
                .map_err(|error| error.to_string())
                .and_then(|bytes| Network::from_bytes(&bytes).map_err(|e| e.to_string()));
            match loaded {
                Ok(network) => {
                    self.out.info_string(&format!(
                        "EvalFile {path}: network with {} hidden units{}, {} at {}",
                        network.hidden(),
                        network.inputs().note(),
                        network.activation(),
                        network.quantisation()
                    ));
                    self.network = Some(Arc::new(network));
                }
                Err(why) => {
                    self.out.error(&format!("EvalFile {path}: {why}"));
                    return;
                }
            }
        }
        self.options.eval_file = path;
    }

    /// Loads the Syzygy tables in the folders of `path` (an empty path unloads them) and
    /// reports what was found; a folder that does not exist or holds no table is refused,
    /// and the old tables stay (`Tablebases::replace`).
    fn load_tablebases(&mut self, path: String) {
        match Tablebases::replace(&mut self.tablebases, &path) {
            Ok(()) => {
                if let Some(tables) = &self.tablebases {
                    self.out.info_string(&tables.scan().summary());
                }
                self.options.syzygy_path = path;
            }
            Err(error) => {
                self.out.error(&error.to_string());
                if self.tablebases.is_none() {
                    self.options.syzygy_path.clear();
                }
            }
        }
    }

    /// The tablebase settings of a search: the tables with the `Syzygy*` options.
    fn probing(&self) -> Option<Probing> {
        self.tablebases.as_ref().map(|tables| Probing {
            tables: tables.clone(),
            probe_depth: self.options.syzygy_probe_depth as i32,
            fifty_move_rule: self.options.syzygy_50_move_rule,
            probe_limit: self.options.syzygy_probe_limit,
        })
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.histories.clear();
    }

    /// The search that has been started and not yet answered with `bestmove`.
    fn running(&mut self) -> Option<&mut ActiveSearch> {
        if self
            .active
            .as_mut()
            .is_some_and(super::search::thread::ActiveSearch::is_finished)
        {
            self.active = None;
        }
        self.active.as_mut()
    }

    /// Runs `perft` or `bench` on the search thread, like a search: `isready` is answered
    /// meanwhile, `stop` ends it, and commands that need the engine idle wait for it.
    fn start_task(&mut self, task: Task) {
        self.active = self.search_thread.start_task(task);
        if self.active.is_none() {
            self.out.error("the search thread is gone");
        }
    }

    /// `genfens`: the arguments are checked and the book is read here, so that a bad
    /// request prints its error and no position; the positions are then found on the
    /// search thread, like `bench`: `isready` is answered meanwhile and `stop` ends it.
    /// The balance searches evaluate as a search would (`EvalFile`, `UseNNUE`).
    fn genfens(&mut self, params: &GenfensParams) {
        let prepared = match Genfens::prepare(params) {
            Ok(prepared) => prepared,
            Err(error) => return self.out.error(&error.to_string()),
        };
        for message in &prepared.skipped {
            self.out.skipped(message);
        }
        let settings = Settings {
            network: self.evaluation(),
            ..Settings::default()
        };
        let genfens = prepared.genfens;
        self.start_task(Task::Job(Box::new(move |signals, out| {
            let ending = genfens.run(&settings, &mut || signals.stop_requested(), &mut |fen| {
                out.line(&format!("info string genfens {fen}"));
            });
            match ending {
                Ok(GenfensEnding::Complete) => {}
                // Not `info string genfens ...`, which OpenBench would take for a position.
                Ok(GenfensEnding::Stopped(found)) => out.info_string(&format!(
                    "stopped: genfens printed {found} of {} positions",
                    genfens.count
                )),
                Err(error) => out.error(&error.to_string()),
            }
        })));
    }

    fn stop(&mut self) {
        if let Some(active) = self.running() {
            active.signal(Signal::Stop);
            active.wait();
        }
        self.active = None;
    }

    /// Starts the search of a `go`. A `go` is never refused, since the GUI waits for its
    /// `bestmove`: each refused part gets its error line (see [`Engine::limits`]) and the
    /// search runs with the rest.
    fn go(&mut self, params: GoParams, started: Instant) {
        let mut errors: Vec<String> = params.problems.iter().map(ToString::to_string).collect();
        let mut notes = Vec::new();
        let limits = self.limits(&params, &mut errors, &mut notes);
        for error in errors.iter().take(MAX_GO_ERRORS) {
            self.out.error(error);
        }
        if errors.len() > MAX_GO_ERRORS {
            self.out.error(&format!(
                "go: {} more faulty parts not shown",
                errors.len() - MAX_GO_ERRORS
            ));
        }
        for note in &notes {
            self.out.info_string(note);
        }
        if is_game_move(&params) && self.play_book_move() {
            return;
        }
        let job = SearchJob {
            game: self.game.clone(),
            limits,
            settings: Settings {
                threads: self.options.threads,
                multipv: self.options.multipv,
                chess960: self.game_chess960,
                move_overhead: Duration::from_millis(self.options.move_overhead_ms),
                strength: self
                    .options
                    .limit_strength
                    .then(|| Strength::new(self.options.elo, self.rng.next_u64())),
                show_wdl: self.options.show_wdl,
                network: self.evaluation(),
                tablebases: self.probing(),
            },
        };
        self.active = self.search_thread.start(
            job,
            Arc::clone(&self.tt),
            Arc::clone(&self.histories),
            params.ponder,
            started,
        );
        if self.active.is_none() {
            self.out
                .error("the search thread is gone; restart the engine");
            // The `go` is still owed its one `bestmove`: the first legal move.
            let board = &self.game.board;
            let best = crate::position::legal_moves(board)
                .first()
                .map_or(UciMove::Null, |&mv| to_uci(board, mv, self.game_chess960));
            self.out.send(&Response::BestMove { best, ponder: None });
        }
    }

    /// Answers `go` from the book when `OwnBook` is on and the book has a move here:
    /// `info string book move <move>` then the `bestmove`, with no search.
    fn play_book_move(&mut self) -> bool {
        if !self.options.own_book {
            return false;
        }
        let Some(book) = &self.book else {
            return false;
        };
        let board = &self.game.board;
        let Some(mv) = book.choose(board, &mut self.rng) else {
            return false;
        };
        let best = to_uci(board, mv, self.game_chess960);
        self.out.info_string(&format!("book move {best}"));
        self.out.send(&Response::BestMove { best, ponder: None });
        true
    }

    /// The limits of a `go`, adding its refused parts to `errors` (which holds the
    /// parser's already) and what it decided in their place to `notes`. A `searchmoves`
    /// move that is not legal here is refused and left out; when none is left, the search
    /// covers every move. A `go` that had a part refused (by the parser or here, such as
    /// `mate 0`) and is left with no limit, and is not `infinite`, searches to
    /// [`FALLBACK_DEPTH`]: the limit it asked for is unknown, and a search that only `stop`
    /// ends could leave the GUI waiting forever (a `ponder` search still waits for
    /// `ponderhit` or `stop` first).
    fn limits(
        &self,
        params: &GoParams,
        errors: &mut Vec<String>,
        notes: &mut Vec<String>,
    ) -> Limits {
        let board = &self.game.board;
        let mut searchmoves = Vec::with_capacity(params.searchmoves.len());
        for &uci in &params.searchmoves {
            match from_uci(board, uci, self.game_chess960) {
                Some(mv) => searchmoves.push(mv),
                None => errors.push(format!("searchmoves: {uci} is not a legal move here")),
            }
        }
        if params.mate == Some(0) {
            errors.push("go: mate 0 is no number of moves (mate in 1 is `mate 1`); ignored".into());
        }
        let refused = !errors.is_empty();
        if searchmoves.is_empty() && !params.searchmoves.is_empty() {
            notes.push("searchmoves: no legal move left; searching all moves".into());
        }
        let (own_time, mut ours, theirs) = match board.side_to_move() {
            Color::White => (
                "wtime",
                (params.wtime, params.winc),
                (params.btime, params.binc),
            ),
            Color::Black => (
                "btime",
                (params.btime, params.binc),
                (params.wtime, params.winc),
            ),
        };
        // Our own time given but unreadable (`go wtime 12.5` with White to move) and no
        // other limit: it may be all but gone, so play at once rather than on the
        // opponent's clock.
        let own_time_unreadable = params.problems.iter().any(|problem| {
            matches!(problem, ParseError::BadNumber { parameter, .. } if parameter == own_time)
        });
        let other_limit = params.depth.is_some()
            || params.nodes.is_some()
            || params.mate.is_some_and(|n| n > 0)
            || params.movetime.is_some();
        if ours.0.is_none() && !other_limit && own_time_unreadable {
            notes.push(format!(
                "go: {own_time} unreadable; playing as if no time were left"
            ));
            ours.0 = Some(0);
        }
        // A partial clock (say `go wtime 100` with Black to move) still means "play
        // on a clock": borrow the other side's figures rather than think forever. An
        // increment or `movestogo` alone means a clock only beside no other limit
        // (`go depth 14 winc 100` searches to depth 14).
        let any_increment = ours.1.or(theirs.1);
        let clock = match (ours.0, theirs.0) {
            (Some(time), _) => Some((time, ours.1.unwrap_or(0))),
            (None, Some(time)) => Some((time, any_increment.unwrap_or(0))),
            (None, None)
                if !other_limit && (any_increment.is_some() || params.movestogo.is_some()) =>
            {
                Some((0, any_increment.unwrap_or(0)))
            }
            (None, None) => None,
        }
        .map(|(time, increment)| Clock {
            time: Duration::from_millis(time),
            increment: Duration::from_millis(increment),
            moves_to_go: params.movestogo.filter(|&n| n > 0),
        });
        let mut limits = Limits {
            depth: params.depth,
            nodes: params.nodes,
            soft_nodes: None,
            mate: params.mate.filter(|&n| n > 0),
            movetime: params.movetime.map(Duration::from_millis),
            clock,
            infinite: params.infinite,
            searchmoves,
        };
        if !limits.is_bounded() && refused && !params.infinite {
            notes.push(format!(
                "go: no limit left after the errors; searching to depth {FALLBACK_DEPTH}"
            ));
            limits.depth = Some(FALLBACK_DEPTH);
        }
        // `go` with no limit at all searches until `stop`.
        if !limits.is_bounded() {
            limits.infinite = true;
        }
        limits
    }
}

/// The depth of the search that answers a `go` whose limits were all refused: quick,
/// and still a legal, sensible move.
const FALLBACK_DEPTH: u32 = 1;

/// The most error lines one `go` prints for its faulty parts; the rest are counted.
const MAX_GO_ERRORS: usize = 8;

/// A line waiting for the running search to end.
enum Waiting {
    /// A command, with the time it arrived (a `go`'s clock starts then).
    Command(Command, Instant),
    /// The error message of a line that did not parse, printed in its turn.
    Unparsed(String),
}

/// Whether `waiting` is a `go ... ponder` not yet started.
fn is_waiting_ponder(waiting: &Waiting) -> bool {
    matches!(waiting, Waiting::Command(Command::Go(params), _) if params.ponder)
}

/// Whether a command must wait for the running search to end: it starts a search or
/// runs one of its own (`bench`, `perft`), or it clears or replaces the hash table or the
/// tablebases the search is using.
fn needs_idle(command: &Command) -> bool {
    match command {
        Command::Go(_)
        | Command::Bench { .. }
        | Command::Perft { .. }
        | Command::Genfens(_)
        | Command::UciNewGame => true,
        Command::SetOption { name, .. } => options::needs_idle(name),
        _ => false,
    }
}

/// Whether `go` asks for a move in a game (on a clock or a fixed time per move) rather than
/// for analysis (`infinite`, `ponder`, `searchmoves`, `depth`, `nodes`, `mate`, or no limit
/// at all): only game moves are taken from the book.
fn is_game_move(params: &GoParams) -> bool {
    let on_clock = params.wtime.is_some()
        || params.btime.is_some()
        || params.winc.is_some()
        || params.binc.is_some()
        || params.movestogo.is_some();
    let timed = on_clock || params.movetime.is_some();
    let analysis = params.infinite
        || params.ponder
        || !params.searchmoves.is_empty()
        || params.depth.is_some()
        || params.nodes.is_some()
        || params.mate.is_some();
    timed && !analysis
}

/// A seed that differs from one engine start to the next.
fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
