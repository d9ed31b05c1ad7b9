//! Syzygy endgame tablebases: the one place that knows the prober crate (`pyrrhic-rs`, a
//! Rust port of Fathom/Pyrrhic). The rest of the engine sees only the types declared
//! here: [`Tablebases`] (a loaded set of tables, cheap to clone), [`Wdl`] (a probe's
//! verdict), [`RootProbe`] (the root moves ranked by DTZ) and [`Probing`] (the tables
//! with the `Syzygy*` options, as a search carries them).
//!
//! The prober keeps one global table set per process. [`Tablebases::open`] therefore
//! shares the tables already loaded when asked for the same folders, and refuses other
//! folders while any handle to the first set is alive ([`TablebaseError::Busy`]). It also
//! accepts folders that do not exist and does not count tables by itself, so the folders
//! are scanned here ([`scan`]) before the prober is asked to load them.
//!
//! The whole lifecycle of a set lives here: [`Tablebases::replace`] scans the folders once,
//! lets go of the old set, loads the new one (with one retry policy: wait up to a second
//! for the prober to be free) and takes the old set back on failure. So does the question
//! which positions may be probed ([`Tablebases::covers`], [`Probing::probes_root`],
//! [`Probing::probes_in_tree`]), answered with the tables' own piece limit.
//!
//! A probe never fails loudly: a position outside the loaded tables, or a table that
//! cannot be read, answers `None`, and the search goes on as if there were no table.

mod checksum;
mod header;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Weak};

use checksum::Checksum;

use cozy_chess::{Board, Color, Move, Piece, Rank, Square};
use parking_lot::Mutex;
use pyrrhic_rs::{DtzProbeValue, EngineAdapter, TBError, TableBases, WdlProbeResult};

/// The separator of the folders in `SyzygyPath`, as in the platform's `PATH`.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// The most pieces (kings included) a Syzygy table covers.
pub const MAX_PIECES: u32 = 7;

/// Why tables could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TablebaseError {
    /// The path named no folder at all.
    #[error("Syzygy: no folder given")]
    NoPath,
    /// A folder that does not exist or cannot be listed.
    #[error("Syzygy: cannot read folder {folder}: {why}")]
    Folder { folder: String, why: String },
    /// A folder that holds no Syzygy table.
    #[error("Syzygy: no tables found in {0}")]
    NoTables(String),
    /// Other tables are still in use in this process (the prober holds one set at a time).
    #[error("Syzygy: other tables ({0}) are still in use; cannot load a second set")]
    Busy(String),
    /// The prober refused to load the tables.
    #[error("Syzygy: the tables in {path} could not be loaded ({why})")]
    Load { path: String, why: String },
    /// A file named like a table that is not one (its header or size is wrong): the prober
    /// would trust it, so the whole path is refused.
    #[error("Syzygy: {path} is not a Syzygy table ({why})")]
    NotATable { path: String, why: String },
    /// A table file that could not be opened or read to its end.
    #[error("Syzygy: cannot read {path}: {why}")]
    Unreadable { path: String, why: String },
    /// A table whose contents do not give the checksum stored at its end: it was damaged
    /// after it was made, and the prober, which trusts it, could crash on it.
    #[error("Syzygy: {0} is damaged (its contents do not give the checksum stored at its end)")]
    Damaged(String),
}

/// The first four bytes of every win/draw/loss table.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
/// The first four bytes of every distance-to-zeroing table.
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Tables of at most this many pieces have their checksums checked at every load: all of
/// them, 3 to 5 pieces, are about 1 GB, read at about 0.1 s per 64 MiB from the page cache
/// (about 1.6 s), where the tables of six pieces are 150 GB.
const CHECKED_PIECES: u32 = 5;

/// Checks what the prober only asserts or trusts: that the file at `path` starts with its
/// kind's magic, that its size is 16 more than a multiple of 64, as every Syzygy table's
/// is, that its header holds the pieces of `material`, the name it is found by (see
/// [`header`]), and, with `verify`, that its contents give the checksum in its last 16
/// bytes (see [`checksum`]). `Ok(false)` for a table whose checksum was not checked.
fn check_table(
    path: &Path,
    material: &str,
    magic: [u8; 4],
    verify: bool,
) -> Result<bool, TablebaseError> {
    use std::io::{Read, Seek};
    let refuse = |why: String| TablebaseError::NotATable {
        path: path.display().to_string(),
        why,
    };
    let unreadable = |why: std::io::Error| TablebaseError::Unreadable {
        path: path.display().to_string(),
        why: why.to_string(),
    };
    let mut file = crate::file_error::open_regular_file(path).map_err(unreadable)?;
    let size = file.metadata().map_err(unreadable)?.len();
    if size % 64 != 16 {
        return Err(refuse(format!(
            "its size, {size} bytes, is not 16 more than a multiple of 64"
        )));
    }
    let mut head = [0u8; header::HEADER_LEN];
    file.read_exact(&mut head).map_err(unreadable)?;
    if head[..4] != magic {
        return Err(refuse("wrong magic bytes".into()));
    }
    header::check(&head, material).map_err(refuse)?;
    if !verify {
        return Ok(false);
    }
    file.rewind().map_err(unreadable)?;
    match checksum::check(&mut file, size).map_err(unreadable)? {
        Checksum::Matches => Ok(true),
        Checksum::NotChecked => Ok(false),
        Checksum::Differs => Err(TablebaseError::Damaged(path.display().to_string())),
    }
}

/// What a scan of the folders found: the table files by kind, and the most pieces any
/// table covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scan {
    pub folders: Vec<PathBuf>,
    /// `.rtbw` files (win/draw/loss).
    pub wdl: usize,
    /// `.rtbz` files (distance to zeroing).
    pub dtz: usize,
    /// The most pieces of any table found, kings included.
    pub max_pieces: u32,
    /// Tables trusted without a check of their checksum: of more than [`CHECKED_PIECES`]
    /// pieces, or too large for [`checksum`].
    pub unchecked: usize,
}

impl Scan {
    /// Tables of both kinds.
    pub fn tables(&self) -> usize {
        self.wdl + self.dtz
    }

    /// `<N> tables found (<W> WDL, <D> DTZ), up to <P> pieces`, for `info string`, with
    /// `, <U> not checksummed (over 5 pieces or 64 MiB)` when there are such tables.
    pub fn summary(&self) -> String {
        let unchecked = match self.unchecked {
            0 => String::new(),
            n => format!(
                ", {n} not checksummed (over {CHECKED_PIECES} pieces or {} MiB)",
                checksum::MAX_CHECKED_DATA >> 20
            ),
        };
        format!(
            "Syzygy: {} tables found ({} WDL, {} DTZ), up to {} pieces{unchecked}",
            self.tables(),
            self.wdl,
            self.dtz,
            self.max_pieces
        )
    }
}

/// Scans the folders of `path` (separated by [`PATH_SEPARATOR`]) for Syzygy tables. Every
/// folder must exist and hold at least one table.
pub fn scan(path: &str) -> Result<Scan, TablebaseError> {
    let folders = folders(path);
    if folders.is_empty() {
        return Err(TablebaseError::NoPath);
    }
    let mut scan = Scan {
        folders: folders.clone(),
        wdl: 0,
        dtz: 0,
        max_pieces: 0,
        unchecked: 0,
    };
    for folder in &folders {
        let found = scan_folder(folder, &mut scan)?;
        if found == 0 {
            return Err(TablebaseError::NoTables(folder.display().to_string()));
        }
    }
    Ok(scan)
}

/// The folders of `path`, separated by [`PATH_SEPARATOR`], blanks trimmed.
fn folders(path: &str) -> Vec<PathBuf> {
    path.split(PATH_SEPARATOR)
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// Counts the tables of one folder into `scan`; returns how many it holds.
fn scan_folder(folder: &Path, scan: &mut Scan) -> Result<usize, TablebaseError> {
    let error = |why: std::io::Error| TablebaseError::Folder {
        folder: folder.display().to_string(),
        why: why.to_string(),
    };
    let mut found = 0;
    for entry in std::fs::read_dir(folder).map_err(error)? {
        let entry = entry.map_err(error)?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let Some((material, kind)) = name.rsplit_once('.') else {
            continue;
        };
        let Some(pieces) = table_pieces(material) else {
            continue;
        };
        let checked = match kind {
            "rtbw" => {
                scan.wdl += 1;
                check_table(&entry.path(), material, WDL_MAGIC, pieces <= CHECKED_PIECES)?
            }
            "rtbz" => {
                scan.dtz += 1;
                check_table(&entry.path(), material, DTZ_MAGIC, pieces <= CHECKED_PIECES)?
            }
            _ => continue,
        };
        scan.unchecked += usize::from(!checked);
        found += 1;
        scan.max_pieces = scan.max_pieces.max(pieces);
    }
    Ok(found)
}

/// The number of pieces of a table named like `KRPvKR` (3 to 7), or `None` for another
/// name.
fn table_pieces(material: &str) -> Option<u32> {
    let (white, black) = material.split_once('v')?;
    let side_ok = |side: &str| {
        side.starts_with('K')
            && side.len() <= 6
            && side.chars().skip(1).all(|c| "QRBNP".contains(c))
    };
    let pieces = (white.len() + black.len()) as u32;
    // No table has fewer than three pieces: two kings alone are a draw by the rules.
    (side_ok(white) && side_ok(black) && (3..=MAX_PIECES).contains(&pieces)).then_some(pieces)
}

/// A probe's verdict, from the side to move's view, with the fifty-move rule's nuances:
/// a cursed win is won but not within fifty moves of the last zeroing move, a blessed
/// loss likewise lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss,
    BlessedLoss,
    Draw,
    CursedWin,
    Win,
}

impl Wdl {
    /// The verdict for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// -2 (loss) to 2 (win), as python-chess and the Syzygy tools write it.
    pub fn value(self) -> i32 {
        self as i32 - 2
    }

    /// The verdict as the game ends it: with the fifty-move rule a cursed win and a
    /// blessed loss are draws, without it a win and a loss. -1, 0 or 1.
    pub fn outcome(self, fifty_move_rule: bool) -> i32 {
        match self {
            Wdl::Win => 1,
            Wdl::Loss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => i32::from(!fifty_move_rule),
            Wdl::BlessedLoss => -i32::from(!fifty_move_rule),
        }
    }

    fn from_prober(result: WdlProbeResult) -> Wdl {
        match result {
            WdlProbeResult::Loss => Wdl::Loss,
            WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
            WdlProbeResult::Draw => Wdl::Draw,
            WdlProbeResult::CursedWin => Wdl::CursedWin,
            WdlProbeResult::Win => Wdl::Win,
        }
    }
}

/// A DTZ probe of a position: its verdict and its distance to zeroing in plies (positive
/// when the side to move wins, negative when it loses, 0 for a draw or a game over).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dtz {
    pub wdl: Wdl,
    pub dtz: i32,
}

/// One root move with its tablebase verdict (after the game's fifty-move counter) and
/// the distance to zeroing after it, when the DTZ tables were there to tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    pub wdl: Wdl,
    /// Plies to the next zeroing move for the winning (or losing) side, counted from the
    /// root; `None` when only the WDL tables were probed.
    pub dtz: Option<u32>,
}

/// The legal root moves ranked by the tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootProbe {
    pub moves: Vec<RankedMove>,
    /// Whether DTZ tables ranked the moves (else the WDL tables alone did).
    pub dtz: bool,
}

impl RootProbe {
    /// The moves that keep the best result there is, by the outcome the game gives
    /// (`fifty_move_rule`): among winning moves only those nearest to zeroing (DTZ-optimal,
    /// so the win is converted in time), among losing moves those farthest from it, and
    /// every drawing move. Empty only if there was no move.
    pub fn best_moves(&self, fifty_move_rule: bool) -> Vec<RankedMove> {
        let key = |m: &RankedMove| (m.wdl.outcome(fifty_move_rule), m.wdl);
        let Some(best) = self.moves.iter().map(key).max() else {
            return Vec::new();
        };
        let keep: Vec<&RankedMove> = self.moves.iter().filter(|m| key(m) == best).collect();
        let distance = |m: &&RankedMove| m.dtz.unwrap_or(0);
        let target = match best.0 {
            1 => keep.iter().map(distance).min(),
            -1 => keep.iter().map(distance).max(),
            _ => None,
        };
        keep.into_iter()
            .filter(|m| target.is_none_or(|t| distance(m) == t))
            .copied()
            .collect()
    }
}

/// Plugs cozy-chess's attack tables into the prober's move generator.
#[derive(Debug, Clone, Copy)]
struct Adapter;

fn square(index: u64) -> Square {
    Square::index((index & 63) as usize)
}

impl EngineAdapter for Adapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        cozy_chess::get_pawn_attacks(square(sq), color).0
    }
    fn knight_attacks(sq: u64) -> u64 {
        cozy_chess::get_knight_moves(square(sq)).0
    }
    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        cozy_chess::get_bishop_moves(square(sq), cozy_chess::BitBoard(occupied)).0
    }
    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        cozy_chess::get_rook_moves(square(sq), cozy_chess::BitBoard(occupied)).0
    }
    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        Self::bishop_attacks(sq, occupied) | Self::rook_attacks(sq, occupied)
    }
    fn king_attacks(sq: u64) -> u64 {
        cozy_chess::get_king_moves(square(sq)).0
    }
}

/// The one set of tables loaded in the process, with what the scan found.
struct Loaded {
    /// The prober's handle, never cloned (its root probe refuses while a clone exists).
    prober: TableBases<Adapter>,
    scan: Scan,
    /// The folders as handed to the prober.
    key: String,
    /// Serialises root probes, which the prober does not make thread-safe.
    root: Mutex<()>,
}

/// The loaded set, if any handle to it is alive.
static CURRENT: Mutex<Option<Weak<Loaded>>> = Mutex::new(None);

/// How long loading waits for the prober to be free (an earlier set still held by a
/// search that is ending, or still unloading), and how often it looks.
const FREE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);
const FREE_POLL: std::time::Duration = std::time::Duration::from_millis(1);

/// A loaded set of Syzygy tables. Clones share the tables; they are unloaded when the
/// last clone goes.
#[derive(Clone)]
pub struct Tablebases {
    loaded: Arc<Loaded>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("scan", &self.loaded.scan)
            .finish()
    }
}

/// The bitboards the prober takes, from `board`.
struct Bitboards {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    /// The en-passant target square, 0 for none.
    ep: u32,
    white_to_move: bool,
}

impl Bitboards {
    fn new(board: &Board) -> Bitboards {
        let white_to_move = board.side_to_move() == Color::White;
        let ep = board.en_passant().map_or(0, |file| {
            let rank = if white_to_move {
                Rank::Sixth
            } else {
                Rank::Third
            };
            Square::new(file, rank) as u32
        });
        Bitboards {
            white: board.colors(Color::White).0,
            black: board.colors(Color::Black).0,
            kings: board.pieces(Piece::King).0,
            queens: board.pieces(Piece::Queen).0,
            rooks: board.pieces(Piece::Rook).0,
            bishops: board.pieces(Piece::Bishop).0,
            knights: board.pieces(Piece::Knight).0,
            pawns: board.pieces(Piece::Pawn).0,
            ep,
            white_to_move,
        }
    }
}

impl Tablebases {
    /// Loads the tables in the folders of `path` (separated by [`PATH_SEPARATOR`]), or
    /// shares them if the same folders are loaded already.
    pub fn open(path: &str) -> Result<Tablebases, TablebaseError> {
        Tablebases::load(scan(path)?)
    }

    /// Loads the tables `scan` found, with the one retry policy: while another set is in
    /// use or unloading, try again every [`FREE_POLL`] for up to [`FREE_WAIT`], then
    /// answer [`TablebaseError::Busy`].
    fn load(scan: Scan) -> Result<Tablebases, TablebaseError> {
        let started = std::time::Instant::now();
        loop {
            match Tablebases::try_load(&scan) {
                Err(TablebaseError::Busy(_)) if started.elapsed() < FREE_WAIT => {
                    std::thread::sleep(FREE_POLL);
                }
                result => return result,
            }
        }
    }

    /// One attempt at loading the tables `scan` found.
    fn try_load(scan: &Scan) -> Result<Tablebases, TablebaseError> {
        let key = scan
            .folders
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(":");
        let mut current = CURRENT.lock();
        if let Some(loaded) = current.as_ref().and_then(Weak::upgrade) {
            if loaded.key == key {
                return Ok(Tablebases { loaded });
            }
            return Err(TablebaseError::Busy(loaded.key.clone()));
        }
        // A set whose last handle went away on another thread may still be unloading:
        // the prober refuses a new set until it is gone, which takes moments.
        let prober = match TableBases::<Adapter>::new(&key) {
            Err(TBError::AlreadyInitialized) if current.is_some() => {
                return Err(TablebaseError::Busy(key));
            }
            result => result.map_err(|why| TablebaseError::Load {
                path: key.clone(),
                why: format!("{why:?}"),
            })?,
        };
        let loaded = Arc::new(Loaded {
            prober,
            scan: scan.clone(),
            key,
            root: Mutex::new(()),
        });
        *current = Some(Arc::downgrade(&loaded));
        Ok(Tablebases { loaded })
    }

    /// Replaces the set `held` (if any) with the tables in the folders of `path`; an
    /// empty path just lets go of it. The folders are scanned first, and a scan that fails
    /// leaves `held` alone. The prober holds one set per process, so the old set is let go
    /// before the new one loads, and taken back (from its own scan) if the new one cannot
    /// load. On failure `held` is the old set again, or `None` if that could not be
    /// reloaded either. The folders `held` was loaded from are not scanned again (a GUI
    /// that sends its options before every game would wait for the checksums each time);
    /// an empty path first makes the next load read them anew.
    pub fn replace(held: &mut Option<Tablebases>, path: &str) -> Result<(), TablebaseError> {
        if path.is_empty() {
            *held = None;
            return Ok(());
        }
        if held
            .as_ref()
            .is_some_and(|old| old.scan().folders == folders(path))
        {
            return Ok(());
        }
        let scan = scan(path)?;
        let old_scan = held.take().map(|old| old.scan().clone());
        match Tablebases::load(scan) {
            Ok(tables) => {
                *held = Some(tables);
                Ok(())
            }
            Err(error) => {
                *held = old_scan.and_then(|old| Tablebases::load(old).ok());
                Err(error)
            }
        }
    }

    /// What the scan of the folders found.
    pub fn scan(&self) -> &Scan {
        &self.loaded.scan
    }

    /// The most pieces (kings included) of any loaded table.
    pub fn max_pieces(&self) -> u32 {
        self.loaded.scan.max_pieces
    }

    /// Probes the WDL tables: the verdict for the side to move with a zero fifty-move
    /// counter, or `None` when the position has castling rights, more pieces than the
    /// tables, or no table (or an unreadable one) covers it.
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        if !self.covers(board) {
            return None;
        }
        let b = Bitboards::new(board);
        self.loaded
            .prober
            .probe_wdl(
                b.white,
                b.black,
                b.kings,
                b.queens,
                b.rooks,
                b.bishops,
                b.knights,
                b.pawns,
                b.ep,
                b.white_to_move,
            )
            .ok()
            .map(Wdl::from_prober)
    }

    /// Probes the DTZ tables for `board` itself (with its fifty-move counter): its
    /// verdict and distance to zeroing. `None` as for [`Tablebases::probe_wdl`], or when
    /// the DTZ table is missing.
    pub fn probe_dtz(&self, board: &Board) -> Option<Dtz> {
        let result = self.raw_root_probe(board)?;
        match result.root {
            DtzProbeValue::Checkmate => Some(Dtz {
                wdl: Wdl::Loss,
                dtz: 0,
            }),
            DtzProbeValue::Stalemate => Some(Dtz {
                wdl: Wdl::Draw,
                dtz: 0,
            }),
            DtzProbeValue::DtzResult(root) => {
                let wdl = Wdl::from_prober(root.wdl);
                let dtz = i32::from(root.dtz);
                Some(Dtz {
                    wdl,
                    dtz: if wdl > Wdl::Draw {
                        dtz
                    } else if wdl < Wdl::Draw {
                        -dtz
                    } else {
                        0
                    },
                })
            }
            DtzProbeValue::Failed => None,
        }
    }

    /// Ranks the legal moves of `board` by the DTZ tables (the verdicts reckoned with the
    /// game's fifty-move counter), or by the WDL tables alone when a DTZ table is
    /// missing. `None` when the position is not covered or has no legal move.
    pub fn probe_root(&self, board: &Board) -> Option<RootProbe> {
        if let Some(result) = self.raw_root_probe(board) {
            let mut moves = Vec::with_capacity(result.num_moves);
            for value in result.moves.iter().take(result.num_moves) {
                let DtzProbeValue::DtzResult(r) = value else {
                    continue;
                };
                let Some(mv) = root_move(board, r.from_square, r.to_square, r.promotion) else {
                    continue;
                };
                moves.push(RankedMove {
                    mv,
                    wdl: Wdl::from_prober(r.wdl),
                    dtz: Some(u32::from(r.dtz)),
                });
            }
            if !moves.is_empty() {
                return Some(RootProbe { moves, dtz: true });
            }
        }
        self.wdl_root_probe(board)
    }

    /// The root ranking by the WDL tables: each move's verdict is the child's, flipped.
    fn wdl_root_probe(&self, board: &Board) -> Option<RootProbe> {
        if !self.covers(board) {
            return None;
        }
        let mut moves = Vec::new();
        let mut failed = false;
        board.generate_moves(|piece_moves| {
            for mv in piece_moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                let wdl = match child.status() {
                    cozy_chess::GameStatus::Won => Some(Wdl::Win),
                    cozy_chess::GameStatus::Drawn => Some(Wdl::Draw),
                    cozy_chess::GameStatus::Ongoing => self.probe_wdl(&child).map(Wdl::flip),
                };
                match wdl {
                    Some(wdl) => moves.push(RankedMove { mv, wdl, dtz: None }),
                    None => failed = true,
                }
            }
            failed
        });
        (!failed && !moves.is_empty()).then_some(RootProbe { moves, dtz: false })
    }

    /// The prober's root probe, serialised, or `None` if it fails.
    fn raw_root_probe(&self, board: &Board) -> Option<pyrrhic_rs::DtzProbeResult> {
        if !self.covers(board) {
            return None;
        }
        let b = Bitboards::new(board);
        let _guard = self.loaded.root.lock();
        self.loaded
            .prober
            .probe_root(
                b.white,
                b.black,
                b.kings,
                b.queens,
                b.rooks,
                b.bishops,
                b.knights,
                b.pawns,
                u32::from(board.halfmove_clock()),
                b.ep,
                b.white_to_move,
            )
            .ok()
    }

    /// Whether the tables may hold `board`: no castling rights, few enough pieces.
    pub fn covers(&self, board: &Board) -> bool {
        root_probeable(board, self.max_pieces())
    }
}

/// Whether the tables may be probed for `board` at the root of a search (or for a
/// game's adjudication): at most `max_pieces` pieces, kings included, and no castling
/// rights (the tables know no castling). The fifty-move counter may be anything: the DTZ
/// tables take it into account.
fn root_probeable(board: &Board, max_pieces: u32) -> bool {
    board.occupied().len() <= max_pieces
        && board.castle_rights(Color::White).short.is_none()
        && board.castle_rights(Color::White).long.is_none()
        && board.castle_rights(Color::Black).short.is_none()
        && board.castle_rights(Color::Black).long.is_none()
}

/// Whether the WDL tables may be probed for `board` inside the search tree: as at the
/// root, and moreover right after a capture or pawn move (a zero fifty-move counter),
/// since the WDL tables assume one.
fn tree_probeable(board: &Board, max_pieces: u32) -> bool {
    board.halfmove_clock() == 0 && root_probeable(board, max_pieces)
}

/// The legal move of `board` from `from` to `to` (promoting as told), as the prober
/// names it.
fn root_move(board: &Board, from: u8, to: u8, promotion: pyrrhic_rs::Piece) -> Option<Move> {
    let promotion = match promotion {
        pyrrhic_rs::Piece::Queen => Some(Piece::Queen),
        pyrrhic_rs::Piece::Rook => Some(Piece::Rook),
        pyrrhic_rs::Piece::Bishop => Some(Piece::Bishop),
        pyrrhic_rs::Piece::Knight => Some(Piece::Knight),
        _ => None,
    };
    let square = |index: u8| Square::try_index(usize::from(index));
    let mv = Move {
        from: square(from)?,
        to: square(to)?,
        promotion,
    };
    board.is_legal(mv).then_some(mv)
}

/// The tables and the `Syzygy*` options, as a search carries them.
#[derive(Debug, Clone)]
pub struct Probing {
    pub tables: Tablebases,
    /// `SyzygyProbeDepth`: probe inside the tree only at this remaining depth or more.
    pub probe_depth: i32,
    /// `Syzygy50MoveRule`: whether cursed wins and blessed losses count as draws.
    pub fifty_move_rule: bool,
    /// `SyzygyProbeLimit`: probe only positions with at most this many pieces.
    pub probe_limit: u32,
}

impl Probing {
    /// `tables` probed as the options' defaults say: from depth 1, the fifty-move rule
    /// on, every piece count the tables have (for the tools).
    pub fn new(tables: Tablebases) -> Probing {
        Probing {
            tables,
            probe_depth: 1,
            fifty_move_rule: true,
            probe_limit: MAX_PIECES,
        }
    }

    /// The most pieces a probed position may have: the option's limit or the largest
    /// table, whichever is smaller.
    pub fn piece_limit(&self) -> u32 {
        self.probe_limit.min(self.tables.max_pieces())
    }

    /// Whether the root `board` of a search may be probed (see [`root_probeable`]).
    pub fn probes_root(&self, board: &Board) -> bool {
        root_probeable(board, self.piece_limit())
    }

    /// Whether `board` inside the search tree may be probed, `depth` plies from the
    /// horizon: deep enough for `SyzygyProbeDepth`, and see [`tree_probeable`].
    pub fn probes_in_tree(&self, board: &Board, depth: i32) -> bool {
        depth >= self.probe_depth && tree_probeable(board, self.piece_limit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test tables kept in the repository.
    pub fn test_path() -> String {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy").to_string()
    }

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    #[test]
    fn table_names_are_recognised() {
        assert_eq!(table_pieces("KQvK"), Some(3));
        assert_eq!(table_pieces("KRPvKR"), Some(5));
        assert_eq!(table_pieces("KQRBNPPvK"), None);
        assert_eq!(table_pieces("README"), None);
        assert_eq!(table_pieces("KXvK"), None);
        assert_eq!(table_pieces("KvK"), None);
    }

    #[test]
    fn scan_counts_the_test_tables() {
        let found = scan(&test_path()).unwrap();
        assert_eq!((found.wdl, found.dtz, found.max_pieces), (7, 7, 4));
        assert_eq!(found.unchecked, 0);
        assert_eq!(
            found.summary(),
            "Syzygy: 14 tables found (7 WDL, 7 DTZ), up to 4 pieces"
        );
        assert!(matches!(
            scan("/no/such/folder"),
            Err(TablebaseError::Folder { .. })
        ));
        assert!(matches!(
            scan(concat!(env!("CARGO_MANIFEST_DIR"), "/src")),
            Err(TablebaseError::NoTables(_))
        ));
        assert_eq!(scan(""), Err(TablebaseError::NoPath));
    }

    #[test]
    fn a_file_named_like_a_table_that_is_not_one_or_is_damaged_refuses_the_path() {
        let folder =
            std::env::temp_dir().join(format!("cutoff-fake-tables-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let table = folder.join("KQvK.rtbw");
        let path = folder.display().to_string();
        // The size of a table (16 more than a multiple of 64) without its magic.
        std::fs::write(&table, [0u8; 80]).unwrap();
        let wrong_magic = scan(&path);
        // The magic without the size.
        let mut bytes = WDL_MAGIC.to_vec();
        bytes.resize(100, 0);
        // The header's pieces: flags, order, then White's K, Q and Black's K.
        bytes[6..9].copy_from_slice(&[6, 5, 14]);
        std::fs::write(&table, &bytes).unwrap();
        let wrong_size = scan(&path);
        // Both right, but not the checksum at its end: damaged.
        bytes.resize(80, 0);
        std::fs::write(&table, &bytes).unwrap();
        let damaged = scan(&path);
        std::fs::remove_file(&table).unwrap();
        // A real table under another table's name: its header holds other pieces.
        let kpk = std::fs::read(format!("{}/KPvK.rtbw", test_path())).unwrap();
        std::fs::write(folder.join("KRvK.rtbw"), kpk).unwrap();
        let misnamed = scan(&path);
        std::fs::remove_file(folder.join("KRvK.rtbw")).unwrap();
        // A six-piece table's header (flags, order, then White's K, R, P, P and Black's
        // K, R): its checksum is not checked, so it is accepted.
        bytes[6..12].copy_from_slice(&[6, 4, 1, 1, 14, 12]);
        std::fs::write(folder.join("KRPPvKR.rtbw"), &bytes).unwrap();
        let unchecked = scan(&path);
        std::fs::remove_dir_all(&folder).unwrap();
        let refused = |result: &Result<Scan, TablebaseError>, why: &str| matches!(result, Err(TablebaseError::NotATable { why: w, .. }) if w.contains(why));
        assert!(refused(&wrong_magic, "magic"), "{wrong_magic:?}");
        assert!(refused(&wrong_size, "100 bytes"), "{wrong_size:?}");
        assert!(
            refused(&misnamed, "holds the pieces PKk, not those of KRvK"),
            "{misnamed:?}"
        );
        assert!(
            matches!(&damaged, Err(TablebaseError::Damaged(p)) if p.ends_with("KQvK.rtbw")),
            "{damaged:?}"
        );
        let unchecked = unchecked.unwrap();
        assert_eq!((unchecked.wdl, unchecked.unchecked), (1, 1));
        assert_eq!(
            unchecked.summary(),
            "Syzygy: 1 tables found (1 WDL, 0 DTZ), up to 6 pieces, 1 not checksummed \
             (over 5 pieces or 64 MiB)"
        );
    }

    #[test]
    fn probes_agree_with_known_positions() {
        let tables = Tablebases::open(&test_path()).unwrap();
        assert_eq!(
            tables.probe_wdl(&board("6k1/8/8/3P4/4K3/8/8/8 w - - 0 1")),
            Some(Wdl::Win)
        );
        assert_eq!(
            tables.probe_wdl(&board("6k1/8/8/3P4/4K3/8/8/8 b - - 0 1")),
            Some(Wdl::Draw)
        );
        assert_eq!(
            tables.probe_wdl(&board("7k/8/8/8/8/8/8/KQ6 w - - 0 1")),
            Some(Wdl::Win)
        );
        // Five pieces: beyond the test tables.
        assert_eq!(
            tables.probe_wdl(&board("8/8/8/8/8/8/1P6/KQ4rk w - - 0 1")),
            None
        );
        // Castling rights: never probed.
        assert_eq!(
            tables.probe_wdl(&board("8/8/8/8/8/8/8/R3K2k w Q - 0 1")),
            None
        );
        let dtz = tables
            .probe_dtz(&board("6k1/8/8/3P4/4K3/8/8/8 w - - 0 1"))
            .unwrap();
        assert_eq!(
            dtz,
            Dtz {
                wdl: Wdl::Win,
                dtz: 1
            }
        );
    }

    #[test]
    fn tablebase_eligibility() {
        let kqk = board("8/8/4k3/8/8/4K3/8/Q7 w - - 0 1");
        assert!(tree_probeable(&kqk, 3));
        assert!(!tree_probeable(&kqk, 2));
        let later = board("8/8/4k3/8/8/4K3/8/Q7 w - - 5 9");
        assert!(!tree_probeable(&later, 5));
        assert!(root_probeable(&later, 5));
        let castling = board("8/8/4k3/8/8/8/8/R3K3 w Q - 0 1");
        assert!(!root_probeable(&castling, 7));
    }

    #[test]
    fn a_second_set_is_refused_while_the_first_is_alive() {
        let tables = Tablebases::open(&test_path()).unwrap();
        let again = Tablebases::open(&test_path()).unwrap();
        assert_eq!(again.scan(), tables.scan());
        // `tests/data` holds no table itself but scanning fails first; a folder with
        // tables but other than the loaded one is refused.
        let other = std::env::temp_dir().join(format!("cutoff-tb-{}", std::process::id()));
        std::fs::create_dir_all(&other).unwrap();
        std::fs::copy(
            Path::new(&test_path()).join("KQvK.rtbw"),
            other.join("KQvK.rtbw"),
        )
        .unwrap();
        let refused = Tablebases::open(&other.display().to_string());
        std::fs::remove_dir_all(&other).ok();
        assert!(matches!(refused, Err(TablebaseError::Busy(_))));
    }

    #[test]
    fn the_root_keeps_the_winning_moves_nearest_to_zeroing() {
        let tables = Tablebases::open(&test_path()).unwrap();
        // KPvK: only the pawn push and the king moves that keep the win.
        let root = tables
            .probe_root(&board("6k1/8/8/3P4/4K3/8/8/8 w - - 0 1"))
            .unwrap();
        assert!(root.dtz);
        let best = root.best_moves(true);
        assert!(!best.is_empty());
        for m in &best {
            assert_eq!(m.wdl, Wdl::Win);
            assert_eq!(m.dtz, best[0].dtz);
        }
        // Every other winning move is farther from zeroing.
        for m in root.moves.iter().filter(|m| m.wdl == Wdl::Win) {
            assert!(m.dtz >= best[0].dtz);
        }
    }

    #[test]
    fn outcomes_follow_the_fifty_move_rule() {
        assert_eq!(Wdl::CursedWin.outcome(true), 0);
        assert_eq!(Wdl::CursedWin.outcome(false), 1);
        assert_eq!(Wdl::BlessedLoss.outcome(true), 0);
        assert_eq!(Wdl::BlessedLoss.outcome(false), -1);
        assert_eq!(Wdl::Win.flip(), Wdl::Loss);
        assert_eq!(Wdl::CursedWin.flip(), Wdl::BlessedLoss);
        assert_eq!(Wdl::Loss.value(), -2);
    }
}
