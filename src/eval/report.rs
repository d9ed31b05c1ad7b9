//! The `eval` command's report: each term group's contribution for White and Black.

use std::fmt::Write;

use cozy_chess::{Board, Color};

use super::king::danger_penalty;
use super::layout::entry_of;
use super::params::{NUM_PARAMS, WEIGHTS};
use super::scale::{apply_scale, taper, MAX_PHASE, NORMAL_SCALE};
use super::score::S;
use super::trace::Tracer;

/// Report rows: the entry-name prefix that selects each group, and its label.
const GROUPS: [(&str, &str); 10] = [
    ("MATERIAL", "Material"),
    ("PST", "Piece-square"),
    ("MOBILITY", "Mobility"),
    ("PAWN", "Pawn structure"),
    ("PASSED", "Passed pawns"),
    ("PIECE", "Pieces"),
    ("SHELTER", "King shelter"),
    ("DANGER", "King danger"),
    ("THREAT", "Threats"),
    ("TEMPO", "Tempo"),
];

/// The row of the king-danger penalty.
const DANGER_ROW: usize = 7;

/// The group row of flat index `index` (the last row for an unknown name).
fn group_of(index: usize) -> usize {
    let prefix = entry_of(index)
        .map(|e| e.name.split('_').next().unwrap_or(e.name))
        .unwrap_or("");
    GROUPS
        .iter()
        .position(|&(p, _)| p == prefix)
        .unwrap_or(GROUPS.len() - 1)
}

/// Sums each group's weights per side.
struct Groups {
    row_of: Vec<usize>,
    rows: [[S; 2]; GROUPS.len()],
    danger: [S; 2],
    phase: i32,
    scale: i32,
    applied: [bool; 2],
}

impl Tracer for Groups {
    fn linear(&mut self, index: usize, color: Color, count: i32) {
        self.rows[self.row_of[index]][color as usize] += WEIGHTS[index] * count;
    }

    fn danger(&mut self, index: usize, king: Color, count: i32) {
        self.danger[king as usize] += WEIGHTS[index] * count;
    }

    fn finish(&mut self, phase: i32, scale: i32, danger_applied: [bool; 2]) {
        self.phase = phase;
        self.scale = scale;
        self.applied = danger_applied;
    }
}

/// One table line: label, White, Black and White-minus-Black pairs.
fn line(out: &mut String, label: &str, white: S, black: S) {
    let diff = white - black;
    let _ = writeln!(
        out,
        "{label:<15}|{:>7}{:>7}  |{:>7}{:>7}  |{:>7}{:>7}",
        white.0, white.1, black.0, black.1, diff.0, diff.1
    );
}

/// The `eval` report: a table of each term's (mg, eg) contribution for White and Black,
/// the phase blend and scale, and the final line `Final evaluation: <cp> cp (white side)`.
pub fn report(board: &Board) -> String {
    let mut groups = Groups {
        row_of: (0..NUM_PARAMS).map(group_of).collect(),
        rows: [[S::ZERO; 2]; GROUPS.len()],
        danger: [S::ZERO; 2],
        phase: 0,
        scale: NORMAL_SCALE,
        applied: [false; 2],
    };
    let white_cp = super::evaluate_white(board, &WEIGHTS, &mut groups);
    for color in [0, 1] {
        if groups.applied[color] {
            groups.rows[DANGER_ROW][color] += danger_penalty(groups.danger[color]);
        }
    }

    let rule = "---------------+----------------+----------------+----------------\n";
    let mut out = String::new();
    out.push_str("Term           |     White      |     Black      |     Total\n");
    out.push_str("               |     MG     EG  |     MG     EG  |     MG     EG\n");
    out.push_str(rule);
    let mut sums = [S::ZERO; 2];
    for (row, &(_, label)) in groups.rows.iter().zip(GROUPS.iter()) {
        line(&mut out, label, row[0], row[1]);
        sums[0] += row[0];
        sums[1] += row[1];
    }
    out.push_str(rule);
    line(&mut out, "Total", sums[0], sums[1]);

    let total = sums[0] - sums[1];
    let blended = taper(total, groups.phase) / MAX_PHASE;
    let _ = writeln!(
        out,
        "\nKing danger units: White {}/{} ({}), Black {}/{} ({})",
        groups.danger[0].0,
        groups.danger[0].1,
        if groups.applied[0] {
            "applied"
        } else {
            "too few attackers"
        },
        groups.danger[1].0,
        groups.danger[1].1,
        if groups.applied[1] {
            "applied"
        } else {
            "too few attackers"
        },
    );
    let _ = writeln!(
        out,
        "Phase {}/{MAX_PHASE} (mg weight), blended {blended:+} cp, endgame scale {}/{NORMAL_SCALE}",
        groups.phase, groups.scale
    );
    debug_assert_eq!(
        apply_scale(taper(total, groups.phase), groups.scale),
        white_cp
    );
    let _ = write!(out, "Final evaluation: {white_cp:+} cp (white side)");
    out
}
