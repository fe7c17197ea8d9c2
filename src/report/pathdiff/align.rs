//! The alignment: a shortest edit script between two key sequences
//! (Myers, "An O(ND) difference algorithm and its variations", 1986), and
//! a second pass over each gap with other keys.

use serde::Serialize;

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

/// A shortest edit script turning `a` into `b` (Myers' greedy O((N+M)D)
/// algorithm, with the common prefix and suffix taken off first): the
/// matched pairs form a longest common subsequence. Deletions come before
/// insertions in each gap.
pub fn align<K: PartialEq>(a: &[K], b: &[K]) -> Vec<Op> {
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..]
        .iter()
        .rev()
        .zip(b[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (am, bm) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let mut ops: Vec<Op> = (0..pre).map(|i| Op::Same(i, i)).collect();
    ops.extend(myers(am, bm).into_iter().map(|o| match o {
        Op::Same(i, j) => Op::Same(i + pre, j + pre),
        Op::Del(i) => Op::Del(i + pre),
        Op::Ins(j) => Op::Ins(j + pre),
    }));
    ops.extend((0..suf).map(|k| Op::Same(a.len() - suf + k, b.len() - suf + k)));
    ops
}

/// The most edits the search follows: its trace grows as D², so past this
/// (about 4M diagonal entries) the middle is given as deleted then inserted,
/// a valid if not shortest script, instead of taking the memory.
pub const MAX_EDITS: usize = 2000;

fn myers<K: PartialEq>(a: &[K], b: &[K]) -> Vec<Op> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    if max > MAX_EDITS && !within(a, b, MAX_EDITS) {
        return (0..a.len())
            .map(Op::Del)
            .chain((0..b.len()).map(Op::Ins))
            .collect();
    }
    let off = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    // The furthest x on each diagonal k after each d, for the way back.
    let mut trace: Vec<Vec<isize>> = Vec::new();
    'outer: for d in 0..=max as isize {
        let mut row = Vec::with_capacity((2 * d + 1) as usize);
        let mut k = -d;
        while k <= d {
            let (x, y) = furthest(a, b, &mut v, off, d, k);
            row.push(x);
            if x >= n && y >= m {
                trace.push(row);
                break 'outer;
            }
            k += 2;
        }
        trace.push(row);
    }
    // Walk back from (n, m).
    let mut out = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (1..trace.len() as isize).rev() {
        let prev = &trace[(d - 1) as usize];
        let at = |k: isize| prev[((k + d - 1) / 2) as usize];
        let k = x - y;
        let down = k == -d || (k != d && at(k - 1) < at(k + 1));
        let pk = if down { k + 1 } else { k - 1 };
        let px = at(pk);
        let py = px - pk;
        let (sx, sy) = if down { (px, py + 1) } else { (px + 1, py) };
        while x > sx && y > sy {
            x -= 1;
            y -= 1;
            out.push(Op::Same(x as usize, y as usize));
        }
        out.push(if down {
            Op::Ins(py as usize)
        } else {
            Op::Del(px as usize)
        });
        (x, y) = (px, py);
    }
    while x > 0 && y > 0 {
        x -= 1;
        y -= 1;
        out.push(Op::Same(x as usize, y as usize));
    }
    out.reverse();
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

/// One step of Myers' forward pass: the furthest point on diagonal `k`
/// after `d` edits (from the neighbour diagonal that reaches further, then
/// along the run of equal elements), stored in `v` and returned as (x, y).
fn furthest<K: PartialEq>(
    a: &[K],
    b: &[K],
    v: &mut [isize],
    off: isize,
    d: isize,
    k: isize,
) -> (isize, isize) {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let down = k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize]);
    let mut x = if down {
        v[(off + k + 1) as usize]
    } else {
        v[(off + k - 1) as usize] + 1
    };
    let mut y = x - k;
    while x < n && y < m && a[x as usize] == b[y as usize] {
        x += 1;
        y += 1;
    }
    v[(off + k) as usize] = x;
    (x, y)
}

/// Whether a and b are at most `limit` edits apart (the forward pass of
/// Myers' search alone, in linear space).
fn within<K: PartialEq>(a: &[K], b: &[K], limit: usize) -> bool {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let lim = limit as isize;
    let off = lim + 1;
    let mut v = vec![0isize; 2 * limit + 3];
    for d in 0..=lim {
        let mut k = -d;
        while k <= d {
            let (x, y) = furthest(a, b, &mut v, off, d, k);
            if x >= n && y >= m {
                return true;
            }
            k += 2;
        }
    }
    false
}

/// Aligns by the primary keys, then each unmatched gap again by the
/// secondary keys.
pub fn align_two_level<K: PartialEq, T: PartialEq>(
    a: &[K],
    b: &[K],
    a2: &[T],
    b2: &[T],
) -> Vec<Op> {
    let first = align(a, b);
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
        out.extend(align(&ka, &kb).into_iter().map(|o| match o {
            Op::Same(p, q) => Op::Same(dels[p], ins[q]),
            Op::Del(p) => Op::Del(dels[p]),
            Op::Ins(q) => Op::Ins(ins[q]),
        }));
        i = j;
    }
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

    #[test]
    fn past_the_edit_limit_the_script_is_still_valid() {
        // Nothing in common: D = n + m, over the limit; the shortest script
        // is then exactly all deleted and all inserted.
        let a: Vec<u32> = (0..1500).collect();
        let b: Vec<u32> = (2000..3600).collect();
        let ops = align(&a, &b);
        check(&a, &b, &ops);
        assert_eq!(lcs_len(&ops), 0);
        // Close enough (one change in 3000): the full search runs.
        let mut c = a.clone();
        c[700] = 9999;
        let ops = align(&a, &c);
        check(&a, &c, &ops);
        assert_eq!(lcs_len(&ops), 1499);
        assert!(within(&a, &c, 2) && !within(&a, &b, 100));
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
