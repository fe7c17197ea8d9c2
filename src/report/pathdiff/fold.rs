//! Folding in the text and Markdown diffs: long runs of rows identical on
//! both paths (the same cycles, no events) shrink to their ends and a note
//! of what they cost, so the rows that differ stand out; `--full` unfolds.

use super::{Op, PathDiff, cycles};

/// Runs of identical rows (on both paths, the same cycles, no events) of
/// at least `FOLD_MIN` are folded in text and Markdown, but for `FOLD_CONTEXT`
/// rows at each end; `--full` shows them.
pub const FOLD_MIN: usize = 64;
pub const FOLD_CONTEXT: usize = 3;

impl PathDiff {
    /// The ranges of rows (`ops` indices, end exclusive) to fold.
    pub fn folds(&self) -> Vec<(usize, usize)> {
        let same = |o: &Op| match *o {
            Op::Same(i, j) => {
                let (a, b) = (&self.a.lines[i], &self.b.lines[j]);
                a.milli == b.milli && a.events.is_empty() && b.events.is_empty()
            }
            _ => false,
        };
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.ops.len() {
            if !same(&self.ops[i]) {
                i += 1;
                continue;
            }
            let j = (i..self.ops.len())
                .find(|&j| !same(&self.ops[j]))
                .unwrap_or(self.ops.len());
            if j - i >= FOLD_MIN {
                out.push((i + FOLD_CONTEXT, j - FOLD_CONTEXT));
            }
            i = j;
        }
        out
    }

    /// What a folded run of identical rows cost, for its note:
    /// ", N cycles each side" with a core, nothing without.
    pub fn fold_cycles(&self, range: (usize, usize)) -> String {
        if self.core.is_none() {
            return String::new();
        }
        let (ma, _) = self.milli_in(range);
        format!(", {} cycles each side", cycles(ma))
    }

    /// Milli-cycles of A's and B's lines in rows `r`.
    pub fn milli_in(&self, r: (usize, usize)) -> (u64, u64) {
        let mut m = (0, 0);
        for o in &self.ops[r.0..r.1] {
            if let Op::Same(i, j) = *o {
                m.0 += self.a.lines[i].milli;
                m.1 += self.b.lines[j].milli;
            }
        }
        m
    }
}
