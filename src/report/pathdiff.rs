//! The before/after path diff: two variants' retired paths for one
//! iteration, aligned like `diff` (a shortest edit script, Myers 1986), with
//! each line's cycles and events, per-function subtotals and the total.
//!
//! Lines match by function and source line (`file:line` from the DWARF line
//! table), or by function and instruction text where there is no line info.
//! What that leaves unmatched between two matches (a renamed copy of a
//! function, a line table shifted by the patch) is aligned again by
//! instruction text alone, so `handle_exception` and `handle_exception_ras`,
//! two copies of one template, line up instruction by instruction.

mod align;
mod fold;
mod json;
mod line;
mod markdown;
mod matching;
#[cfg(test)]
mod quadratic;
mod render;
mod snake;
mod typical;

pub use align::{BUDGET, GaveUp, Op, Search, align, align_two_level, align_two_level_within};
pub use typical::{Choice, choose, diff_typical, most_common};

use std::path::PathBuf;

use serde::Serialize;

use crate::scenario::{Scenario, UnknownVariant};
use crate::session::path::{self, PathRun, Step, Which};
use crate::session::{RunOpts, SessionError};

pub use fold::{FOLD_CONTEXT, FOLD_MIN};
pub use json::json;
pub use line::{Line, cycles, events_detail, events_text, signed};
pub use markdown::markdown;
pub use matching::{MatchBy, align_lines, align_lines_within};
pub use render::{EventRow, TEXT_WIDTH, event_rows, text};

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

/// Why two variants cannot be diffed: which two (`variants`), or a run
/// that does not give the iteration (`diff_at`, `diff_typical`).
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    #[error("diff takes two variants (A B) or none (the scenario's first pair)")]
    OneVariant,
    /// The scenario (`file`) has `count` variants, fewer than two.
    #[error("{}: diff needs two variants, and the scenario has {count}", file.display())]
    TooFew { file: PathBuf, count: usize },
    #[error("diff of '{0}' against itself: name two different variants")]
    Itself(String),
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    #[error(transparent)]
    Run(#[from] SessionError),
}

/// The two variants to diff: the ones named, else the scenario's first
/// pair, else its first two variants.
pub fn variants(
    s: &Scenario,
    a: Option<&str>,
    b: Option<&str>,
) -> Result<(String, String), DiffError> {
    let (a, b) = match (a, b) {
        (Some(a), Some(b)) => (a.to_string(), b.to_string()),
        (Some(_), None) | (None, Some(_)) => return Err(DiffError::OneVariant),
        (None, None) => match s.pairs.first() {
            Some(p) => (p.before.clone(), p.after.clone()),
            None if s.variants.len() >= 2 => {
                (s.variants[0].name.clone(), s.variants[1].name.clone())
            }
            None => {
                return Err(DiffError::TooFew {
                    file: s.path.clone(),
                    count: s.variants.len(),
                });
            }
        },
    };
    s.variant(&a)?;
    s.variant(&b)?;
    if a == b {
        return Err(DiffError::Itself(a));
    }
    Ok((a, b))
}

/// Records both variants' iteration and aligns them.
pub fn diff_at(
    s: &Scenario,
    a: &str,
    b: &str,
    opts: &RunOpts,
    which: Which,
) -> Result<PathDiff, DiffError> {
    let ra = path::record(s, s.variant(a)?, opts, which)?;
    // The same iteration on both paths: the one A's run gave.
    let rb = path::record(s, s.variant(b)?, opts, Which::Nth(ra.path.iteration))?;
    let mut d = PathDiff::new(&s.path.display().to_string(), &ra, &rb);
    if which == Which::Last {
        d.choice = Choice::Last;
    }
    Ok(d)
}

fn subtotals(a: &[Line], b: &[Line], ops: &[Op]) -> Vec<FnTotal> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn line(function: &str, src: u32, text: &str) -> Line {
        Line {
            pc: 0,
            at: function.into(),
            function: function.into(),
            source: Some(format!("entry.S:{src}")),
            text: text.into(),
            milli: 1000,
            events: Vec::new(),
            mispredict: None,
        }
    }

    #[test]
    fn two_builds_match_by_text_where_the_patch_moved_the_lines() {
        // After the patch, the same three instructions sit 3 lines lower
        // (a hunk above them grew): by source line nothing would match in
        // the same place, by text all three do.
        let a = [
            line("ret_from_exception", 264, "ld a2, 0(sp)"),
            line("ret_from_exception", 267, "csrw sstatus, a0"),
            line("ret_from_exception", 270, "ld ra, 8(sp)"),
        ];
        let b = [
            line("ret_from_exception", 267, "ld a2, 0(sp)"),
            line("ret_from_exception", 270, "csrw sstatus, a0"),
            line("ret_from_exception", 273, "ld ra, 8(sp)"),
        ];
        let by_text = align_lines(&a, &b, MatchBy::Text);
        assert_eq!(
            by_text,
            vec![Op::Same(0, 0), Op::Same(1, 1), Op::Same(2, 2)]
        );
        // By line, A's 267 and 270 pair with B's other instructions there
        // first; the gap pass then finds the text pairs it can.
        let by_line = align_lines(&a, &b, MatchBy::SourceLine);
        let wrong = by_line
            .iter()
            .filter(|o| matches!(o, Op::Same(i, j) if a[*i].text != b[*j].text))
            .count();
        assert_eq!(wrong, 2, "{by_line:?}");
    }

    #[test]
    fn long_identical_runs_fold_but_for_their_ends() {
        let mut lines: Vec<Line> = (0..70).map(|i| line("f", i, "nop")).collect();
        // Row 70 differs in cycles, so the run is rows 0..70.
        lines.push(line("f", 70, "ret"));
        let side = |lines: Vec<Line>| Side {
            variant: "v".into(),
            label: String::new(),
            iteration: 1,
            milli: lines.iter().map(|l| l.milli).sum(),
            lines,
        };
        let mut b = lines.clone();
        b[70].milli = 6000;
        let ops = align_lines(&lines, &b, MatchBy::SourceLine);
        let d = PathDiff {
            scenario: "t".into(),
            functions: subtotals(&lines, &b, &ops),
            a: side(lines),
            b: side(b),
            core: Some("u74".into()),
            ops,
            matched_by: MatchBy::SourceLine,
            choice: Choice::Asked,
            gave_up: Vec::new(),
        };
        let f = d.folds();
        assert_eq!(f, vec![(FOLD_CONTEXT, 70 - FOLD_CONTEXT)]);
        assert_eq!(d.milli_in(f[0]), (64_000, 64_000));
        assert_eq!(d.diff_milli(), 5000);
        let t = render::text(&d, false);
        assert!(t.contains("64 identical rows, 64 cycles each side"), "{t}");
        assert_eq!(t.lines().filter(|l| l.starts_with("= ")).count(), 7, "{t}");
        let full = render::text(&d, true);
        assert_eq!(full.lines().filter(|l| l.starts_with("= ")).count(), 71);
    }

    #[test]
    fn cycles_print_whole_or_with_two_decimals() {
        assert_eq!(cycles(3000), "3");
        assert_eq!(cycles(1500), "1.50");
        assert_eq!(signed(-2000), "-2");
        assert_eq!(signed(250), "+0.25");
        assert_eq!(signed(0), "0");
    }
}
