//! Which iteration the path diff shows by default, and why: the timed
//! iteration nearest the middle of the loop whose figure (cycles with a
//! core, else instructions) is the most common per-iteration figure, on
//! both variants where one index has both, so the diff shows a typical
//! iteration rather than the last (whose loop-exit branch mispredicts).

pub use super::diff::Choice;
use super::{DiffError, PathDiff};
use crate::scenario::Scenario;
use crate::session::RunOpts;
use crate::session::path::{Unit, Which, iteration_figures};

/// The most common value (the smaller of a tie); `None` when empty.
pub fn most_common(f: &[u64]) -> Option<u64> {
    let mut v = f.to_vec();
    v.sort_unstable();
    let mut best: Option<(usize, u64)> = None;
    for run in v.chunk_by(|x, y| x == y) {
        if best.is_none_or(|(n, _)| run.len() > n) {
            best = Some((run.len(), run[0]));
        }
    }
    best.map(|b| b.1)
}

/// The iteration (1-based) nearest the middle of the first n = min(|a|, |b|)
/// where both figures are their side's most common, else where A's is;
/// with whether both are. Nearest by |2i − (n + 1)|, the earlier of two.
pub fn choose(a: &[u64], b: &[u64]) -> Option<(u64, bool)> {
    let n = a.len().min(b.len());
    let (ma, mb) = (most_common(&a[..n])?, most_common(&b[..n])?);
    let nearest = |ok: &dyn Fn(usize) -> bool| {
        (0..n)
            .filter(|&i| ok(i))
            .min_by_key(|&i| (2 * (i + 1)).abs_diff(n + 1))
    };
    if let Some(i) = nearest(&|i| a[i] == ma && b[i] == mb) {
        return Some((i as u64 + 1, true));
    }
    nearest(&|i| a[i] == ma).map(|i| (i as u64 + 1, false))
}

/// The default diff: both variants run once for their per-iteration
/// figures, then the chosen iteration is recorded on both (the last
/// complete one when there are no figures to choose by).
pub fn diff_typical(s: &Scenario, a: &str, b: &str, opts: &RunOpts) -> Result<PathDiff, DiffError> {
    let (fa, unit) = iteration_figures(s, s.variant(a)?, opts)?;
    let (fb, _) = iteration_figures(s, s.variant(b)?, opts)?;
    let Some((i, both)) = choose(&fa, &fb) else {
        return super::diff_at(s, a, b, opts, Which::Last);
    };
    let n = fa.len().min(fb.len());
    let mut d = super::diff_at(s, a, b, opts, Which::Nth(i))?;
    d.choice = Choice::Typical {
        of: n as u64,
        unit: match unit {
            Unit::Milli => "milli",
            Unit::Instructions => "instructions",
        },
        a_common: most_common(&fa[..n]).unwrap_or(0),
        b_common: most_common(&fb[..n]).unwrap_or(0),
        both,
    };
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_common_nearest_the_middle_on_both() {
        assert_eq!(most_common(&[]), None);
        assert_eq!(most_common(&[5, 3, 5, 3, 7]), Some(3));
        assert_eq!(most_common(&[9, 5, 5, 7]), Some(5));
        // Ten iterations: A mostly 233, B mostly 216; the last of each is
        // the loop exit. The middle is 5.5: 5 and 6 are as near, 5 first.
        let a = [240, 233, 233, 233, 233, 233, 233, 233, 233, 237];
        let b = [222, 216, 216, 216, 217, 216, 216, 216, 216, 220];
        // B's 5 is not its most common: 6 has both.
        assert_eq!(choose(&a, &b), Some((6, true)));
        // No index with both: A's alone.
        let b2 = [4, 4, 1, 2, 3, 5, 6, 8, 0, 4];
        assert_eq!(most_common(&b2), Some(4));
        let a2 = [7, 7, 9, 9, 9, 9, 9, 9, 9, 7];
        assert_eq!(choose(&a2, &b2), Some((5, false)));
        // Only the iterations both completed count.
        assert_eq!(choose(&[1, 2, 2, 2], &[3, 3]), Some((1, true)));
        assert_eq!(choose(&[], &[3]), None);
    }
}
