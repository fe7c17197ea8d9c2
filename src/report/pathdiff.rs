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
mod diff;
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

use crate::scenario::{Scenario, UnknownVariant};
use crate::session::path::{self, Step, Which};
use crate::session::{RunOpts, SessionError};

pub use diff::{FnTotal, PathDiff, Side};
pub use fold::{FOLD_CONTEXT, FOLD_MIN};
pub use json::json;
pub use line::{Line, cycles, events_detail, events_text, signed};
pub use markdown::markdown;
pub use matching::{MatchBy, align_lines, align_lines_within};
pub use render::{EventRow, TEXT_WIDTH, event_rows, text};

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

#[cfg(test)]
mod tests {
    use super::diff::subtotals;
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
            bands: None,
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
