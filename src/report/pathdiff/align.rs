//! The alignment: a shortest edit script between two key sequences
//! (Myers, "An O(ND) difference algorithm and its variations", 1986, in
//! linear space: `snake.rs`), and a second pass over each gap with other
//! keys.

use serde::Serialize;

pub use super::snake::{GaveUp, Search};

/// One row of the alignment: indices into the two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    Same(usize, usize),
    /// Only in A (before).
    Del(usize),
    /// Only in B (after).
    Ins(usize),
}

/// A shortest edit script turning `a` into `b`, without a time bound: the
/// matched pairs form a longest common subsequence. Deletions come before
/// insertions in each gap.
pub fn align<K: PartialEq>(a: &[K], b: &[K]) -> Vec<Op> {
    align_within(a, b, &mut Search::new(u64::MAX))
}

/// The work the alignment of one path diff may do (diagonals visited and
/// steps along equal runs, `snake::Search`): a few seconds at most. Past
/// it, what is left is given as deleted then inserted, and the output
/// says where.
pub const BUDGET: u64 = 400_000_000;

/// A shortest edit script (Myers' linear-space divide and conquer,
/// `snake.rs`) within what is left of `search`'s budget; where it ran out,
/// the stretch is in `search.gave_up`.
pub fn align_within<K: PartialEq>(a: &[K], b: &[K], search: &mut Search) -> Vec<Op> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    search.diff(a, b, 0, 0, &mut out);
    // Each gap: deletions first, then insertions.
    let mut i = 0;
    while i < out.len() {
        let j = (i..out.len())
            .find(|&j| matches!(out[j], Op::Same(..)))
            .unwrap_or(out.len());
        out[i..j].sort_by_key(|o| matches!(o, Op::Ins(_)));
        i = j + 1;
    }
    out
}

/// Aligns by the primary keys, then each unmatched gap again by the
/// secondary keys, without a time bound.
pub fn align_two_level<K: PartialEq, T: PartialEq>(
    a: &[K],
    b: &[K],
    a2: &[T],
    b2: &[T],
) -> Vec<Op> {
    align_two_level_within(a, b, a2, b2, &mut Search::new(u64::MAX))
}

/// `align_two_level` within `search`'s budget. The stretches given up on
/// (by either pass) are left in `search.gave_up`, in indices of `a` and
/// `b`, one per stretch (a second pass's inside a first's is dropped).
pub fn align_two_level_within<K: PartialEq, T: PartialEq>(
    a: &[K],
    b: &[K],
    a2: &[T],
    b2: &[T],
    search: &mut Search,
) -> Vec<Op> {
    let first = align_within(a, b, search);
    let mut out = Vec::with_capacity(first.len());
    let mut i = 0;
    while i < first.len() {
        if let Op::Same(..) = first[i] {
            out.push(first[i]);
            i += 1;
            continue;
        }
        let j = (i..first.len())
            .find(|&j| matches!(first[j], Op::Same(..)))
            .unwrap_or(first.len());
        let dels: Vec<usize> = first[i..j]
            .iter()
            .filter_map(|o| if let Op::Del(x) = o { Some(*x) } else { None })
            .collect();
        let ins: Vec<usize> = first[i..j]
            .iter()
            .filter_map(|o| if let Op::Ins(x) = o { Some(*x) } else { None })
            .collect();
        let ka: Vec<&T> = dels.iter().map(|&x| &a2[x]).collect();
        let kb: Vec<&T> = ins.iter().map(|&x| &b2[x]).collect();
        let mut gap = Search::new(search.budget);
        out.extend(
            align_within(&ka, &kb, &mut gap)
                .into_iter()
                .map(|o| match o {
                    Op::Same(p, q) => Op::Same(dels[p], ins[q]),
                    Op::Del(p) => Op::Del(dels[p]),
                    Op::Ins(q) => Op::Ins(ins[q]),
                }),
        );
        search.budget = gap.budget;
        // A gap's indices are consecutive on each side.
        for g in gap.gave_up {
            let r = GaveUp {
                a: (dels[g.a.0], dels[g.a.1 - 1] + 1),
                b: (ins[g.b.0], ins[g.b.1 - 1] + 1),
            };
            let inside =
                |o: &GaveUp| o.a.0 <= r.a.0 && r.a.1 <= o.a.1 && o.b.0 <= r.b.0 && r.b.1 <= o.b.1;
            if !search.gave_up.iter().any(inside) {
                search.gave_up.push(r);
            }
        }
        i = j;
    }
    search.gave_up.sort_by_key(|g| g.a);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcs_len(ops: &[Op]) -> usize {
        ops.iter().filter(|o| matches!(o, Op::Same(..))).count()
    }

    /// Every index of both sides appears once, in order, and matched
    /// pairs are equal.
    fn check<K: PartialEq + std::fmt::Debug>(a: &[K], b: &[K], ops: &[Op]) {
        let (mut i, mut j) = (0, 0);
        for o in ops {
            match *o {
                Op::Same(x, y) => {
                    assert_eq!((x, y), (i, j));
                    assert_eq!(a[x], b[y]);
                    i += 1;
                    j += 1;
                }
                Op::Del(x) => {
                    assert_eq!(x, i);
                    i += 1;
                }
                Op::Ins(y) => {
                    assert_eq!(y, j);
                    j += 1;
                }
            }
        }
        assert_eq!((i, j), (a.len(), b.len()));
    }

    #[test]
    fn classic_example_has_an_lcs_of_four() {
        // Myers' paper: ABCABBA vs CBABAC, LCS length 4 (e.g. CABA), D = 5.
        let a: Vec<char> = "ABCABBA".chars().collect();
        let b: Vec<char> = "CBABAC".chars().collect();
        let ops = align(&a, &b);
        check(&a, &b, &ops);
        assert_eq!(lcs_len(&ops), 4);
        assert_eq!(ops.len() - lcs_len(&ops), 5);
    }

    #[test]
    fn edge_cases() {
        let e: Vec<u8> = vec![];
        let x = vec![1u8, 2, 3];
        assert_eq!(align(&e, &e), vec![]);
        assert_eq!(align(&x, &e), vec![Op::Del(0), Op::Del(1), Op::Del(2)]);
        assert_eq!(align(&e, &x), vec![Op::Ins(0), Op::Ins(1), Op::Ins(2)]);
        assert_eq!(lcs_len(&align(&x, &x)), 3);
        // One replaced in the middle: deletion before insertion.
        let y = vec![1u8, 9, 3];
        assert_eq!(
            align(&x, &y),
            vec![Op::Same(0, 0), Op::Del(1), Op::Ins(1), Op::Same(2, 2)]
        );
    }

    #[test]
    fn many_random_pairs_match_the_dynamic_programme() {
        // The LCS length by the textbook O(NM) table, against Myers.
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u8 % 4
        };
        for _ in 0..300 {
            let n = (next() as usize) * 3 + (next() as usize);
            let m = (next() as usize) * 3 + (next() as usize);
            let a: Vec<u8> = (0..n).map(|_| next()).collect();
            let b: Vec<u8> = (0..m).map(|_| next()).collect();
            let mut t = vec![vec![0usize; m + 1]; n + 1];
            for i in (0..n).rev() {
                for j in (0..m).rev() {
                    t[i][j] = if a[i] == b[j] {
                        t[i + 1][j + 1] + 1
                    } else {
                        t[i + 1][j].max(t[i][j + 1])
                    };
                }
            }
            let ops = align(&a, &b);
            check(&a, &b, &ops);
            assert_eq!(lcs_len(&ops), t[0][0], "{a:?} {b:?}");
        }
    }

    /// A common sequence with known insertions and deletions woven in:
    /// (a, b, the edits put in). Inserted and deleted elements come from
    /// values the common sequence never uses, so no script can match them,
    /// and a script that matches all of the common sequence is shortest:
    /// its edit count is exactly the number put in.
    fn woven(common: &[u32], every: usize, seed: &mut u64) -> (Vec<u32>, Vec<u32>, usize) {
        let mut next = || {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*seed >> 33) as usize
        };
        let (mut a, mut b, mut edits) = (Vec::new(), Vec::new(), 0);
        let mut fresh = 1_000_000u32;
        for &c in common {
            if next() % every == 0 {
                // A run of 1..=3 deletions, insertions, or both.
                let (dels, ins) = match next() % 3 {
                    0 => (1 + next() % 3, 0),
                    1 => (0, 1 + next() % 3),
                    _ => (1 + next() % 3, 1 + next() % 3),
                };
                for _ in 0..dels {
                    a.push(fresh);
                    fresh += 1;
                }
                for _ in 0..ins {
                    b.push(fresh);
                    fresh += 1;
                }
                edits += dels + ins;
            }
            a.push(c);
            b.push(c);
        }
        (a, b, edits)
    }

    #[test]
    fn far_apart_paths_get_the_constructed_edit_count() {
        // 20,000 common elements, all distinct, with an edit run before
        // about one in four: far past 2,000 edits.
        let mut seed = 7u64;
        let common: Vec<u32> = (0..20_000).collect();
        let (a, b, edits) = woven(&common, 4, &mut seed);
        assert!(edits > 2000 * 5, "{edits}");
        let ops = align(&a, &b);
        check(&a, &b, &ops);
        assert_eq!(ops.len() - lcs_len(&ops), edits);
        // Every common element is matched with itself.
        let matched: Vec<u32> = ops
            .iter()
            .filter_map(|o| match *o {
                Op::Same(i, _) => Some(a[i]),
                _ => None,
            })
            .collect();
        assert_eq!(matched, common);
        // The same over a four-letter common sequence, where many scripts
        // are shortest: the count is still exact.
        let common: Vec<u32> = (0..12_000).map(|i| (i * 7 + i / 5) % 4).collect();
        let (a, b, edits) = woven(&common, 3, &mut seed);
        assert!(edits > 2000, "{edits}");
        let ops = align(&a, &b);
        check(&a, &b, &ops);
        assert_eq!(lcs_len(&ops), common.len());
        assert_eq!(ops.len() - lcs_len(&ops), edits);
    }

    #[test]
    fn the_same_edit_distance_as_the_quadratic_search() {
        // Small random inputs over small alphabets (many ties), against
        // the quadratic-space search: both are shortest, so the counts of
        // edits agree (the scripts themselves may differ).
        let mut seed = 99u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for round in 0..3000 {
            let sigma = 1 + next(5);
            let n = next(40) as usize;
            let m = next(40) as usize;
            let a: Vec<u64> = (0..n).map(|_| next(sigma)).collect();
            let b: Vec<u64> = (0..m).map(|_| next(sigma)).collect();
            let ops = align(&a, &b);
            check(&a, &b, &ops);
            let oracle = super::super::quadratic::myers(&a, &b);
            check(&a, &b, &oracle);
            assert_eq!(
                lcs_len(&ops),
                lcs_len(&oracle),
                "round {round}: {a:?} {b:?}"
            );
            assert_eq!(ops.len(), oracle.len(), "round {round}");
        }
    }

    #[test]
    fn past_the_budget_the_stretch_is_recorded_and_the_script_valid() {
        let mut seed = 3u64;
        let common: Vec<u32> = (0..3000).collect();
        let (a, b, _) = woven(&common, 2, &mut seed);
        let mut search = Search::new(10_000);
        let ops = align_within(&a, &b, &mut search);
        check(&a, &b, &ops);
        assert!(!search.gave_up.is_empty());
        // What was given up on is all deleted then inserted.
        for g in &search.gave_up {
            let rows: Vec<&Op> = ops
                .iter()
                .filter(|o| match **o {
                    Op::Same(i, j) => (g.a.0..g.a.1).contains(&i) || (g.b.0..g.b.1).contains(&j),
                    Op::Del(i) => (g.a.0..g.a.1).contains(&i),
                    Op::Ins(j) => (g.b.0..g.b.1).contains(&j),
                })
                .collect();
            assert!(rows.iter().all(|o| !matches!(o, Op::Same(..))), "{g:?}");
            assert_eq!(rows.len(), (g.a.1 - g.a.0) + (g.b.1 - g.b.0));
        }
        // With the whole budget, nothing is given up.
        let mut search = Search::new(BUDGET);
        align_within(&a, &b, &mut search);
        assert!(search.gave_up.is_empty());
    }

    #[test]
    fn a_gap_is_aligned_again_by_the_second_key() {
        // Primary keys differ across the middle (a renamed function), the
        // text matches there except for one instruction.
        let a = [1, 2, 2, 2, 3];
        let b = [1, 4, 4, 4, 4, 3];
        let ta = ["x", "sd", "ld", "jr", "y"];
        let tb = ["x", "sd", "ld", "jalr", "j", "y"];
        let ops = align_two_level(&a, &b, &ta, &tb);
        assert_eq!(
            ops,
            vec![
                Op::Same(0, 0),
                Op::Same(1, 1),
                Op::Same(2, 2),
                Op::Del(3),
                Op::Ins(3),
                Op::Ins(4),
                Op::Same(4, 5)
            ]
        );
    }
}
