//! The flat layout of the weight table: the `params!` macro that turns the named entries of
//! `params.rs` into constants plus a flat index space, and the writer that prints a weight
//! vector back as `params.rs` source (what a tuner would use to save its result).
//!
//! A tuner works on `&[S]` vectors of length [`NUM_PARAMS`]; entry `NAME` occupies indices
//! `idx::NAME .. idx::NAME + len`, in the order the entries are declared.

use std::fmt::Write;

use super::params::{
    DANGER_EG_DIVISOR, DANGER_MG_DIVISOR, ENTRIES, NUM_PARAMS, SCALE_OCB_PURE,
    SCALE_OCB_WITH_PIECES, SCALE_PAWNLESS_SMALL_EDGE,
};
use super::score::S;

/// Declares the weight table. Each entry is `NAME: S = ...;` or `NAME: [S; N] = [...];`
/// with `///` docs. Expands to one `pub const` per entry, the `idx` module of flat offsets,
/// [`NUM_PARAMS`], [`ENTRIES`] and the flat default vector `WEIGHTS`.
macro_rules! params {
    (@len S) => { 1 };
    (@len [S; $n:expr]) => { $n };
    (@copy $w:ident, $at:expr, S, $src:ident) => { $w[$at] = $src; };
    (@copy $w:ident, $at:expr, [S; $n:expr], $src:ident) => {
        let mut i = 0;
        while i < $n {
            $w[$at + i] = $src[i];
            i += 1;
        }
    };
    ($( $(#[doc = $doc:literal])* $name:ident : $kind:tt = $value:expr; )*) => {
        $( $(#[doc = $doc])* pub const $name: $kind = $value; )*

        /// Declaration order of the entries.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        enum Entry { $($name),* }

        /// Number of weights of each entry, in declaration order.
        const LENGTHS: &[usize] = &[$(params!(@len $kind)),*];

        /// The flat index of the first weight of each entry.
        pub mod idx {
            $(
                #[doc = concat!("Flat index of [`", stringify!($name), "`](super::", stringify!($name), ").")]
                pub const $name: usize =
                    $crate::eval::layout::offset(super::LENGTHS, super::Entry::$name as usize);
            )*
        }

        /// Total number of `(mg, eg)` weights.
        pub const NUM_PARAMS: usize = $crate::eval::layout::offset(LENGTHS, LENGTHS.len());

        /// Name, flat offset, length and docs of every entry, in declaration order.
        pub const ENTRIES: &[$crate::eval::layout::EntryInfo] = &[$(
            $crate::eval::layout::EntryInfo {
                name: stringify!($name),
                offset: idx::$name,
                len: params!(@len $kind),
                doc: &[$($doc),*],
            }
        ),*];

        /// All weights as one flat vector, in [`idx`] order.
        pub static WEIGHTS: [S; NUM_PARAMS] = {
            let mut w = [S::ZERO; NUM_PARAMS];
            $( params!(@copy w, idx::$name, $kind, $name); )*
            w
        };
    };
}

/// One named entry of the weight table.
#[derive(Clone, Copy, Debug)]
pub struct EntryInfo {
    /// The constant's name, e.g. `MOBILITY_KNIGHT`.
    pub name: &'static str,
    /// Flat index of its first weight.
    pub offset: usize,
    /// Number of weights (1 for a scalar `S`).
    pub len: usize,
    /// Its `///` doc lines (each with its leading space).
    pub doc: &'static [&'static str],
}

impl EntryInfo {
    /// Whether the entry is an array (`[S; N]`) rather than a scalar `S`.
    pub fn is_array(&self) -> bool {
        // Every array entry in the table has at least two elements.
        self.len > 1
    }
}

/// Sum of the first `n` lengths: the flat offset of entry `n`.
pub const fn offset(lengths: &[usize], n: usize) -> usize {
    let mut sum = 0;
    let mut i = 0;
    while i < n {
        sum += lengths[i];
        i += 1;
    }
    sum
}

/// The entry holding flat index `index`, if any.
pub fn entry_of(index: usize) -> Option<&'static EntryInfo> {
    ENTRIES
        .iter()
        .find(|e| (e.offset..e.offset + e.len).contains(&index))
}

/// A readable name for flat index `index`, e.g. `MOBILITY_KNIGHT[3]` or `TEMPO`.
pub fn name(index: usize) -> String {
    match entry_of(index) {
        Some(e) if e.is_array() => format!("{}[{}]", e.name, index - e.offset),
        Some(e) => e.name.to_string(),
        None => format!("#{index}"),
    }
}

/// Text before the table in `params.rs`.
const HEADER: &str = "\
//! The evaluation weights: every additive term as a named `S(middlegame, endgame)` pair.
//!
//! This file is written by `layout::to_source` (a tuner saves its result with it), so keep
//! its format: one `NAME: S = ...;` or `NAME: [S; N] = [...];` entry per term, in the order
//! that defines the flat index space (`idx::NAME`). Piece-square tables are written as seen
//! from White with rank 8 on top: White's square `sq` reads entry `sq ^ 56`, Black's `sq`.
//! Entries indexed by rank use the rank relative to the side (0 = own first rank).

use super::score::S;

params! {
";

/// Renders a weight vector (length [`NUM_PARAMS`]) as the full text of `params.rs`.
pub fn to_source(weights: &[S]) -> String {
    let mut out = String::from(HEADER);
    for (n, entry) in ENTRIES.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        for line in entry.doc {
            let _ = writeln!(out, "    ///{line}");
        }
        let values = weights
            .get(entry.offset..entry.offset + entry.len)
            .unwrap_or(&[]);
        if entry.is_array() {
            let _ = writeln!(out, "    {}: [S; {}] = [", entry.name, entry.len);
            for row in values.chunks(8) {
                let cells: Vec<String> = row
                    .iter()
                    .map(|s| format!("S({:4}, {:4})", s.0, s.1))
                    .collect();
                let _ = writeln!(out, "        {},", cells.join(", "));
            }
            out.push_str("    ];\n");
        } else {
            let s = values.first().copied().unwrap_or_default();
            let _ = writeln!(out, "    {}: S = S({}, {});", entry.name, s.0, s.1);
        }
    }
    out.push_str("}\n");
    out.push_str(&trailer());
    out
}

/// The fixed, non-additive shape constants that follow the table.
fn trailer() -> String {
    format!(
        "
// Shape constants: not additive weights, so not in the flat vector. The king-danger units are
// mapped to a penalty by `mg = max(units, 0)^2 / DANGER_MG_DIVISOR` and
// `eg = max(units, 0) / DANGER_EG_DIVISOR`; the scale factors multiply the whole blended score
// by `factor / 128` in the endgames named.

/// Middlegame king-danger divisor.
pub const DANGER_MG_DIVISOR: i32 = {DANGER_MG_DIVISOR};
/// Endgame king-danger divisor.
pub const DANGER_EG_DIVISOR: i32 = {DANGER_EG_DIVISOR};
/// Scale for opposite-coloured bishops with only pawns besides.
pub const SCALE_OCB_PURE: i32 = {SCALE_OCB_PURE};
/// Scale for opposite-coloured bishops with other pieces on the board.
pub const SCALE_OCB_WITH_PIECES: i32 = {SCALE_OCB_WITH_PIECES};
/// Scale when the stronger side has no pawns and is at most a minor piece up.
pub const SCALE_PAWNLESS_SMALL_EDGE: i32 = {SCALE_PAWNLESS_SMALL_EDGE};
"
    )
}

/// Checks a weight vector's length before it is used as a table.
pub fn as_table(weights: &[S]) -> Option<&[S; NUM_PARAMS]> {
    weights.try_into().ok()
}
