//! The diff itself: `PathDiff`, its two sides, the per-function totals and
//! why its iteration was chosen (`Choice`), built from two recorded paths.
//! A leaf of its own, below `pathdiff.rs` and `typical.rs`, which run the
//! variants and re-export it, so that the renderings (`render.rs`,
//! `markdown.rs`, `json.rs`, `fold.rs`) read it without importing them.

use serde::Serialize;

use super::align::{BUDGET, Op, Search};
use super::line::{Line, cycles};
use super::matching::{MatchBy, align_lines_within};
use super::snake::GaveUp;
use crate::session::path::PathRun;

/// One side of the diff.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    pub variant: String,
    pub label: String,
    pub iteration: u64,
    pub lines: Vec<Line>,
    pub milli: u64,
}

/// A function's figures on both sides.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FnTotal {
    pub function: String,
    pub a_insns: u64,
    pub a_milli: u64,
    pub b_insns: u64,
    pub b_milli: u64,
}

/// Two variants' paths of one iteration, aligned.
#[derive(Clone, Debug, Serialize)]
pub struct PathDiff {
    pub scenario: String,
    pub a: Side,
    pub b: Side,
    /// The core whose cycles these are (`None`: instructions only).
    pub core: Option<String>,
    pub ops: Vec<Op>,
    /// In order of first appearance along the alignment.
    pub functions: Vec<FnTotal>,
    pub matched_by: MatchBy,
    /// Why this iteration (`diff_at` says asked or last; `diff_typical`
    /// and the TUI say their own).
    pub choice: Choice,
    /// Stretches the alignment gave up on (its time bound, `BUDGET`),
    /// shown as deleted then inserted: A and B line index ranges.
    pub gave_up: Vec<GaveUp>,
    /// The totals' bands in cycles (`session::band`): A's iteration, B's,
    /// and B − A with the same values on both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bands: Option<TotalBands>,
}

/// The cycles bands of a diff's totals.
#[derive(Clone, Debug, Serialize)]
pub struct TotalBands {
    pub a: crate::session::band::Band,
    pub b: crate::session::band::Band,
    pub b_minus_a: crate::session::band::Band,
}

impl TotalBands {
    /// From the two runs' tapes and the iteration marks their paths began
    /// at; none without both tapes.
    pub fn of(a: &PathRun, b: &PathRun) -> Option<TotalBands> {
        use crate::session::band::of_iteration;
        let (ia, ib) = (a.band.as_deref()?, b.band.as_deref()?);
        let (ha, hb) = (a.path.hit, b.path.hit);
        Some(TotalBands {
            a: of_iteration(&[(ia, 1.0, ha)])?,
            b: of_iteration(&[(ib, 1.0, hb)])?,
            b_minus_a: of_iteration(&[(ib, 1.0, hb), (ia, -1.0, ha)])?,
        })
    }
}

impl PathDiff {
    pub fn new(scenario: &str, a: &PathRun, b: &PathRun) -> PathDiff {
        let side = |r: &PathRun| {
            let lines: Vec<Line> = r
                .path
                .steps
                .iter()
                .map(|s| Line::of(&r.program, s))
                .collect();
            Side {
                variant: r.variant.clone(),
                label: r.label.clone(),
                iteration: r.path.iteration,
                milli: lines.iter().map(|l| l.milli).sum(),
                lines,
            }
        };
        let (a_side, b_side) = (side(a), side(b));
        let same = std::rc::Rc::ptr_eq(&a.program, &b.program) || a.program.path == b.program.path;
        let matched_by = if same {
            MatchBy::SourceLine
        } else {
            MatchBy::Text
        };
        let mut search = Search::new(BUDGET);
        let ops = align_lines_within(&a_side.lines, &b_side.lines, matched_by, &mut search);
        let functions = subtotals(&a_side.lines, &b_side.lines, &ops);
        PathDiff {
            scenario: scenario.to_string(),
            core: a.core.clone().or_else(|| b.core.clone()),
            a: a_side,
            b: b_side,
            ops,
            functions,
            matched_by,
            choice: Choice::Asked,
            gave_up: search.gave_up,
            bands: TotalBands::of(a, b),
        }
    }

    /// Why this iteration, one sentence.
    pub fn choice_words(&self) -> String {
        self.choice.words(self.a.iteration)
    }

    /// One sentence per stretch the alignment gave up on: which
    /// instructions of each path (1-based, in path order) and where they
    /// are.
    pub fn gave_up_words(&self) -> Vec<String> {
        let side = |lines: &[Line], r: (usize, usize)| {
            let at = |i: usize| lines.get(i).map_or("?", |l| l.at.as_str());
            format!(
                "{}-{} ({} to {})",
                r.0 + 1,
                r.1,
                at(r.0),
                at(r.1.saturating_sub(1))
            )
        };
        self.gave_up
            .iter()
            .map(|g| {
                format!(
                    "The alignment gave up (its time bound) on A's instructions {} against B's {}: shown as deleted then inserted, not a shortest script.",
                    side(&self.a.lines, g.a),
                    side(&self.b.lines, g.b)
                )
            })
            .collect()
    }

    /// B − A in milli-cycles.
    pub fn diff_milli(&self) -> i64 {
        self.b.milli as i64 - self.a.milli as i64
    }

    /// The rows of the alignment as pairs of lines.
    pub fn rows(&self) -> impl Iterator<Item = (Option<&Line>, Option<&Line>)> {
        self.ops.iter().map(|o| match *o {
            Op::Same(i, j) => (Some(&self.a.lines[i]), Some(&self.b.lines[j])),
            Op::Del(i) => (Some(&self.a.lines[i]), None),
            Op::Ins(j) => (None, Some(&self.b.lines[j])),
        })
    }
}

pub(super) fn subtotals(a: &[Line], b: &[Line], ops: &[Op]) -> Vec<FnTotal> {
    let mut out: Vec<FnTotal> = Vec::new();
    let mut find = |name: &str| -> usize {
        match out.iter().position(|f| f.function == name) {
            Some(i) => i,
            None => {
                out.push(FnTotal {
                    function: name.to_string(),
                    a_insns: 0,
                    a_milli: 0,
                    b_insns: 0,
                    b_milli: 0,
                });
                out.len() - 1
            }
        }
    };
    let mut rows: Vec<(usize, bool, u64)> = Vec::new();
    for o in ops {
        let (l, r) = match *o {
            Op::Same(i, j) => (Some(&a[i]), Some(&b[j])),
            Op::Del(i) => (Some(&a[i]), None),
            Op::Ins(j) => (None, Some(&b[j])),
        };
        if let Some(l) = l {
            rows.push((find(&l.function), true, l.milli));
        }
        if let Some(r) = r {
            rows.push((find(&r.function), false, r.milli));
        }
    }
    for (f, is_a, v) in rows {
        let t = &mut out[f];
        if is_a {
            t.a_insns += 1;
            t.a_milli += v;
        } else {
            t.b_insns += 1;
            t.b_milli += v;
        }
    }
    out
}

/// How the iteration on show was chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "how")]
pub enum Choice {
    /// Named (`--iteration N`).
    Asked,
    /// The iteration the TUI's machine is in.
    Live,
    /// The last complete one (no per-iteration figures to choose by).
    Last,
    /// The default: nearest the middle of `of` timed iterations (those
    /// both runs completed) with the most common figure.
    Typical {
        of: u64,
        /// `milli` (cycles in thousandths) or `instructions`.
        unit: &'static str,
        /// Each variant's most common per-iteration figure.
        a_common: u64,
        b_common: u64,
        /// The chosen iteration has both; else only A's (no index has
        /// both), and B's figure there is its own.
        both: bool,
    },
}

impl Choice {
    /// A word for a title: why this iteration.
    pub fn tag(&self) -> &'static str {
        match self {
            Choice::Asked => "asked",
            Choice::Live => "the machine's",
            Choice::Last => "the last",
            Choice::Typical { .. } => "typical",
        }
    }

    /// One sentence for the outputs' heading.
    pub fn words(&self, iteration: u64) -> String {
        match self {
            Choice::Asked => format!("iteration {iteration}, as asked (--iteration)."),
            Choice::Live => format!("iteration {iteration}, the one the machine is in."),
            Choice::Last => format!(
                "iteration {iteration}, the last complete one (no per-iteration figures to choose by)."
            ),
            Choice::Typical {
                of,
                unit,
                a_common,
                b_common,
                both,
            } => {
                let (fig, what): (fn(u64) -> String, &str) = match *unit {
                    "milli" => (cycles, "cycles"),
                    _ => (|n: u64| n.to_string(), "instructions"),
                };
                let mid = format!(
                    "iteration {iteration} of {of}: the one nearest the middle of the loop"
                );
                if *both {
                    format!(
                        "{mid} whose {what} are each variant's most common per-iteration figure (A {}, B {}); --iteration N picks another.",
                        fig(*a_common),
                        fig(*b_common)
                    )
                } else {
                    format!(
                        "{mid} whose {what} are A's most common per-iteration figure ({}); no iteration has B's most common ({}) too; --iteration N picks another.",
                        fig(*a_common),
                        fig(*b_common)
                    )
                }
            }
        }
    }
}
