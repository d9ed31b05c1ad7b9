//! The search's tunable constants, in one table: each with its default, the range a tuner
//! may move it in, and its SPSA step (`c_end`; the learning rate is [`R_END`] for all).
//! The steps are those of `alphabeta.rs` (numbered there, where their measured Elo is
//! noted), the histories, the move ordering, the aspiration windows and the time manager.
//!
//! Each parameter is read through a function of its name (`params::rfp_margin()`):
//!
//! - in a default build the function returns the default, a compile-time constant, so the
//!   search compiles exactly as with the literal in place;
//! - with the cargo feature `tune` each parameter is an atomic that `setoption` sets (every
//!   parameter is a UCI spin option of its name, within its range), and `cutoff params`
//!   prints the table in OpenBench's SPSA input format ([`spsa_input`]). Setting one of the
//!   late-move-reduction table's parameters rebuilds the table.
//!
//! Fractions are integers over a fixed denominator (per cent unless the comment says
//! otherwise), so that every parameter is an integer, as SPSA's integer parameters are.

/// The learning rate at the end of an SPSA run (OpenBench's `r_end`), for every parameter.
pub const R_END: f64 = 0.002;

/// One tunable parameter.
#[derive(Debug)]
pub struct Param {
    /// The name of its function and of its UCI option.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// The SPSA perturbation at the end of a run (about a twentieth of the range).
    pub c_end: f64,
    /// Its current value (the default, unless built with `tune` and set).
    pub value: fn() -> i32,
    #[cfg(feature = "tune")]
    cell: &'static std::sync::atomic::AtomicI32,
}

/// Declares the parameters: for each, its reading function and its row of [`PARAMS`].
macro_rules! params {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident = $default:expr, $min:expr, $max:expr, $c_end:expr;
    )*) => {
        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                cells::$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        /// The current values of a `tune` build.
        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod cells {
            use std::sync::atomic::AtomicI32;
            $(pub static $name: AtomicI32 = AtomicI32::new($default);)*
        }

        /// Every parameter, in the order of the search's steps.
        pub static PARAMS: &[Param] = &[
            $(Param {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                c_end: $c_end,
                value: $name,
                #[cfg(feature = "tune")]
                cell: &cells::$name,
            },)*
        ];
    };
}

params! {
    // Step 7. Reverse futility pruning.
    /// Step 7: reverse futility pruning applies from this depth down...
    rfp_max_depth = 7, 4, 14, 0.5;
    /// ...when the eval beats beta by this much per ply (a ply less when improving).
    rfp_margin = 80, 30, 150, 6.0;

    // Step 8. Null move pruning.
    /// Step 8: null move pruning from this depth up...
    nmp_min_depth = 2, 2, 6, 0.5;
    /// ...reducing by this many plies...
    nmp_base = 4, 1, 6, 0.5;
    /// ...plus a ply per this many plies of depth...
    nmp_depth_divisor = 4, 2, 8, 0.5;
    /// ...plus a ply per this much the eval beats beta by...
    nmp_eval_divisor = 179, 80, 400, 16.0;
    /// ...at most this many plies for the eval.
    nmp_eval_max = 3, 0, 6, 0.5;

    // Step 9. Internal iterative reduction.
    /// Step 9: a node without a hash move is searched a ply shallower from this depth up.
    iir_min_depth = 5, 2, 8, 0.5;

    // Step 11. Late move pruning.
    /// Step 11: the quiet moves tried before the rest are skipped: this many...
    lmp_base = 4, 0, 8, 0.5;
    /// ...plus this per cent of the depth squared...
    lmp_scale = 113, 50, 200, 8.0;
    /// ...of which this per cent when the eval is not improving.
    lmp_not_improving = 58, 25, 100, 4.0;

    // Step 11b. History pruning.
    /// Step 11b: history pruning applies from this depth down...
    hp_max_depth = 4, 1, 8, 0.5;
    /// ...to quiet moves whose history is below minus this per ply.
    hp_margin = 1932, 512, 4096, 180.0;

    // Step 12. Futility pruning.
    /// Step 12: futility pruning applies from this (LMR) depth down...
    fp_max_depth = 8, 4, 14, 0.5;
    /// ...when the eval is this much...
    fp_base = 91, 0, 250, 12.0;
    /// ...plus this per ply below alpha.
    fp_margin = 83, 40, 180, 7.0;

    // Step 13. SEE pruning of quiet moves.
    /// Step 13: SEE pruning of quiet moves applies from this (LMR) depth down...
    see_max_depth = 8, 4, 14, 0.5;
    /// ...to quiet moves that lose this much per ply...
    see_quiet_margin = 54, 20, 150, 6.0;
    /// ...or, for checks, this much per ply squared.
    see_check_margin = 25, 5, 60, 3.0;

    // Step 14. Singular extension.
    /// Step 14: singular extensions are tried from this depth up...
    se_min_depth = 6, 4, 12, 0.5;
    /// ...when the hash entry is at most this many plies shallower than the node...
    se_tt_depth_margin = 3, 1, 6, 0.5;
    /// ...against a singular beta this many sixteenths per ply below the hash score...
    se_beta_scale = 15, 8, 48, 2.0;
    /// ...extending twice when the alternatives fail this far below the singular beta...
    se_double_margin = 21, 0, 60, 3.0;
    /// ...at most this many times on one line.
    se_max_double = 6, 0, 12, 0.6;

    // Step 15. Late move reductions.
    /// Step 15: late move reductions from this depth up (at depth 2 every reduction is
    /// clamped to nothing).
    lmr_min_depth = 3, 3, 6, 0.5;
    /// The LMR table of quiet moves, `base + ln(depth) ln(move number) / divisor`: its
    /// base in hundredths of a ply...
    lmr_quiet_base = 72, 0, 150, 8.0;
    /// ...and its divisor in hundredths.
    lmr_quiet_divisor = 217, 150, 350, 10.0;
    /// The LMR table of captures: its base in hundredths of a ply...
    lmr_noisy_base = -27, -100, 100, 10.0;
    /// ...and its divisor in hundredths.
    lmr_noisy_divisor = 251, 150, 400, 12.0;
    /// A quiet move is reduced a ply less per this much history (more when it is negative;
    /// steps 12 and 13 judge it at that depth too).
    lmr_history_divisor = 6958, 4096, 16384, 600.0;
    /// A ply more when the replies to the earlier moves failed high more than this often.
    lmr_cutoff_count = 3, 1, 8, 0.5;

    // Quiescence search.
    /// Delta pruning: a capture must be able to come this close to alpha.
    delta_margin = 245, 50, 400, 18.0;
    /// SEE pruning: a capture is searched when its SEE reaches this.
    qs_see_threshold = 19, -150, 100, 12.0;

    // History updates (`history.rs`).
    /// A cutoff's history bonus, `min(quad d² + linear d, max)`: its quadratic factor...
    hist_bonus_quad = 32, 8, 64, 3.0;
    /// ...its linear factor...
    hist_bonus_linear = 60, 0, 256, 12.0;
    /// ...and its cap.
    hist_bonus_max = 2305, 800, 4000, 160.0;
    /// The malus of the moves that failed to cut off, in the same form: quadratic factor...
    hist_malus_quad = 34, 8, 64, 3.0;
    /// ...linear factor...
    hist_malus_linear = 71, 0, 256, 12.0;
    /// ...and cap.
    hist_malus_max = 2538, 800, 4000, 160.0;

    // Move ordering (`movepick.rs`).
    /// The SEE threshold of a good capture.
    good_capture_see = -21, -200, 100, 15.0;
    /// What a quiet move that checks directly adds to its ordering score.
    check_bonus = 5794, 0, 12000, 600.0;
    /// What a quiet move that attacks a more valuable piece adds to its ordering score.
    attack_bonus = 6236, 0, 12000, 600.0;
    /// The threat bonus (malus) of a queen leaving (entering) a rook's or minor's reach...
    threat_queen = 12531, 0, 16000, 800.0;
    /// ...of a rook leaving a minor's or pawn's reach...
    threat_rook = 7271, 0, 16000, 800.0;
    /// ...and of a knight or bishop leaving a pawn's reach.
    threat_minor = 5817, 0, 16000, 800.0;

    // Correction history (`correction.rs`).
    /// A verdict's weight is `min(depth + 1, this)` out of 256.
    corr_max_weight = 16, 4, 64, 3.0;
    /// The largest correction, in centipawns.
    corr_max = 37, 8, 96, 4.0;

    // Aspiration windows (`iterative.rs`).
    /// Aspiration windows from this depth up...
    asp_min_depth = 4, 2, 8, 0.5;
    /// ...this wide on each side of the last score...
    asp_delta = 17, 5, 50, 2.0;
    /// ...growing by this per cent after each failure.
    asp_growth = 52, 20, 150, 6.0;

    // Time management (`time.rs`), per cent unless said.
    /// The hard limit is at most this many hundredths of the soft limit...
    tm_hard_per_soft = 500, 200, 1000, 40.0;
    /// ...and at most this share of the usable time when more than one move is to go...
    tm_hard_fraction = 40, 20, 70, 2.5;
    /// ...or this share for the last move before the time control.
    tm_hard_fraction_last = 85, 50, 95, 2.5;
    /// Share of the increment added to the soft limit.
    tm_increment_share = 100, 50, 150, 5.0;
    /// Expected moves left in sudden death at the start of the game (in moves)...
    tm_moves_start = 30, 15, 60, 2.0;
    /// ...falling by one every two moves to this many.
    tm_moves_end = 15, 5, 30, 1.0;
    /// With no increment beyond the Move Overhead, the overhead of this many moves is
    /// kept back (in moves): no time comes back after a move, so the clock must last.
    tm_reserve_moves = 40, 10, 100, 4.0;
    /// Bounds of the combined scale of the soft limit: the least...
    tm_min_scale = 40, 10, 100, 4.0;
    /// ...and the most.
    tm_max_scale = 250, 100, 500, 20.0;
    /// Best-move stability: the scale of a new best move...
    tm_stability_base = 130, 80, 200, 6.0;
    /// ...less this per iteration it has stayed best...
    tm_stability_step = 10, 0, 25, 1.0;
    /// ...for at most this many iterations.
    tm_stability_iters = 8, 2, 16, 0.7;
    /// Score drop: the scale grows by 1 per this many centipawns lost...
    tm_score_divisor = 100, 25, 400, 18.0;
    /// ...within this least scale...
    tm_score_min = 85, 50, 100, 2.5;
    /// ...and this greatest.
    tm_score_max = 200, 100, 400, 15.0;
    /// Best-move effort: the scale is this less the best move's share of the nodes...
    tm_nodes_base = 150, 100, 250, 7.0;
    /// ...within this least scale...
    tm_nodes_min = 55, 20, 100, 4.0;
    /// ...and this greatest.
    tm_nodes_max = 140, 100, 250, 7.0;
}

/// The parameters that feed the late-move-reduction table: setting one rebuilds it.
pub const LMR_TABLE_PARAMS: [&str; 4] = [
    "lmr_quiet_base",
    "lmr_quiet_divisor",
    "lmr_noisy_base",
    "lmr_noisy_divisor",
];

/// `value` hundredths, as a float (exact for the defaults: the quotient is rounded once).
#[inline(always)]
pub fn hundredths(value: i32) -> f64 {
    f64::from(value) / 100.0
}

/// The parameter called `name` (any case).
pub fn find(name: &str) -> Option<&'static Param> {
    let name = name.trim();
    PARAMS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

/// The table in OpenBench's SPSA input format, one line per parameter at its current
/// value: `name, int, value, min, max, c_end, r_end`.
pub fn spsa_input() -> String {
    PARAMS
        .iter()
        .map(|p| {
            format!(
                "{}, int, {}, {}, {}, {}, {R_END}\n",
                p.name,
                (p.value)(),
                p.min,
                p.max,
                p.c_end
            )
        })
        .collect()
}

/// `cutoff params`: prints [`spsa_input`], the table at its defaults (in a `tune` build;
/// any other has no options to tune).
#[derive(Debug, clap::Parser)]
#[command(
    name = "cutoff params",
    about = "Print the search's parameters in OpenBench's SPSA input format, one line each: \
             name, int, value, min, max, c_end, r_end (needs a build with --features tune, \
             where each is a UCI spin option)"
)]
pub struct Args {}

/// Runs `cutoff params` on the words after `params`.
pub fn main(args: &[String]) -> Result<(), crate::cli::CliError> {
    let _: Args = crate::cli::parse("params", args)?;
    if cfg!(feature = "tune") {
        print!("{}", spsa_input());
        Ok(())
    } else {
        Err(crate::cli::CliError::Invalid(
            "this build's parameters are constants, not options: build with \
             `make EXE=cutoff-tune FEATURES=tune` to tune them"
                .to_string(),
        ))
    }
}

#[cfg(feature = "tune")]
impl Param {
    /// Sets the parameter to `value` (the caller has checked the range), and rebuilds the
    /// reduction table when the parameter feeds it.
    pub fn set(&self, value: i32) {
        self.cell.store(value, std::sync::atomic::Ordering::Relaxed);
        if LMR_TABLE_PARAMS.contains(&self.name) {
            super::thread_data::rebuild_reductions();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for p in PARAMS {
            assert!(
                p.min <= p.default && p.default <= p.max,
                "{}: {} outside {}..={}",
                p.name,
                p.default,
                p.min,
                p.max
            );
            assert!(p.min < p.max, "{}: empty range", p.name);
            let range = f64::from(p.max - p.min);
            assert!(
                p.c_end > 0.0 && p.c_end <= range / 4.0,
                "{}: c_end {} for a range of {range}",
                p.name,
                p.c_end
            );
            assert!(
                names.insert(p.name.to_ascii_lowercase()),
                "{} twice",
                p.name
            );
            assert!(find(&p.name.to_ascii_uppercase()).is_some());
        }
        assert!(LMR_TABLE_PARAMS.iter().all(|name| find(name).is_some()));
    }

    #[test]
    fn divisors_cannot_be_zero() {
        for p in PARAMS.iter().filter(|p| p.name.contains("divisor")) {
            assert!(p.min > 0, "{} may be 0", p.name);
        }
    }

    #[test]
    fn spsa_input_has_a_line_per_parameter() {
        let text = spsa_input();
        assert_eq!(text.lines().count(), PARAMS.len());
        // Rows as OpenBench reads them, a negative default written as one.
        assert!(lmr_noisy_base() < 0);
        for row in [
            format!("rfp_margin, int, {}, 30, 150, 6, 0.002\n", rfp_margin()),
            format!(
                "lmr_noisy_base, int, {}, -100, 100, 10, 0.002\n",
                lmr_noisy_base()
            ),
        ] {
            assert!(text.contains(&row), "{row}");
        }
        for (line, p) in text.lines().zip(PARAMS) {
            let fields: Vec<&str> = line.split(", ").collect();
            assert_eq!(fields.len(), 7, "{line}");
            assert_eq!(fields[0], p.name);
        }
    }
}
