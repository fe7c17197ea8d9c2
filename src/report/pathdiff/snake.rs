//! A shortest edit script in linear space: Myers' divide and conquer on the
//! "middle snake" ("An O(ND) difference algorithm and its variations",
//! 1986, section 4b), the way Hirschberg split the LCS problem.
//!
//! The greedy search from both corners at once meets on a diagonal run of
//! equal elements (the middle snake) that lies on some shortest path; the
//! halves before and after it are solved the same way. Each search keeps
//! one vector of furthest points per direction, so memory is O(N+M) while
//! time stays O((N+M)·D). A work budget bounds the time: a sub-problem that
//! would exceed it is given as deleted then inserted, and recorded, so the
//! output can say where the alignment gave up.

use super::align::Op;

/// A stretch the search gave up on: `a` and `b` are index ranges (end
/// exclusive) of the two inputs, shown as deleted then inserted.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GaveUp {
    pub a: (usize, usize),
    pub b: (usize, usize),
}

/// The search with its budget: each diagonal visited and each step along a
/// run of equal elements costs one unit.
pub struct Search {
    pub budget: u64,
    pub gave_up: Vec<GaveUp>,
}

/// The middle snake of `a` → `b`: its start and end points (x, y) in
/// `a`/`b` coordinates. `None` when the budget ran out.
type Snake = ((usize, usize), (usize, usize));

impl Search {
    pub fn new(budget: u64) -> Search {
        Search {
            budget,
            gave_up: Vec::new(),
        }
    }

    /// Appends a shortest script for `a` → `b` to `out`, with indices
    /// offset by `ao`/`bo`.
    pub fn diff<K: PartialEq>(
        &mut self,
        a: &[K],
        b: &[K],
        ao: usize,
        bo: usize,
        out: &mut Vec<Op>,
    ) {
        // Common prefix and suffix: matched without a search.
        let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let suf = a[pre..]
            .iter()
            .rev()
            .zip(b[pre..].iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        out.extend((0..pre).map(|i| Op::Same(ao + i, bo + i)));
        let (am, bm) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
        let (ao2, bo2) = (ao + pre, bo + pre);
        if am.is_empty() || bm.is_empty() {
            // One side left: all of the other is deleted or inserted.
            out.extend((0..am.len()).map(|i| Op::Del(ao2 + i)));
            out.extend((0..bm.len()).map(|j| Op::Ins(bo2 + j)));
        } else if let Some(((x, y), (u, v))) = self.middle_snake(am, bm) {
            // Both sides are non-empty and differ at both ends, so D >= 2
            // and each half is strictly fewer edits: the recursion ends.
            self.diff(&am[..x], &bm[..y], ao2, bo2, out);
            out.extend((x..u).map(|i| Op::Same(ao2 + i, bo2 + y + (i - x))));
            self.diff(&am[u..], &bm[v..], ao2 + u, bo2 + v, out);
        } else {
            self.gave_up.push(GaveUp {
                a: (ao2, ao2 + am.len()),
                b: (bo2, bo2 + bm.len()),
            });
            out.extend((0..am.len()).map(|i| Op::Del(ao2 + i)));
            out.extend((0..bm.len()).map(|j| Op::Ins(bo2 + j)));
        }
        let (na, nb) = (a.len(), b.len());
        out.extend((0..suf).map(|k| Op::Same(ao + na - suf + k, bo + nb - suf + k)));
    }

    /// Spends `n` units; false when the budget does not hold them.
    fn spend(&mut self, n: u64) -> bool {
        if self.budget < n {
            self.budget = 0;
            return false;
        }
        self.budget -= n;
        true
    }

    /// The forward search on diagonals k = x − y from (0, 0), the reverse
    /// one on diagonals c = (n − x) − (m − y) from (n, m), alternating by
    /// one edit each. With Δ = n − m, diagonal k forward is c = Δ − k in
    /// reverse. When Δ is odd the paths can first meet after a forward
    /// step (D = 2d − 1), when even after a reverse step (D = 2d): the
    /// snake of the path that reached over the other is the middle snake.
    fn middle_snake<K: PartialEq>(&mut self, a: &[K], b: &[K]) -> Option<Snake> {
        let (n, m) = (a.len() as isize, b.len() as isize);
        let delta = n - m;
        let odd = delta & 1 != 0;
        let half = (n + m + 1) / 2;
        let off = half + 1;
        // vf[k]: the furthest x forward on k; vb[c]: the furthest distance
        // from the end, along x, in reverse on c.
        let mut vf = vec![0isize; (2 * half + 3) as usize];
        let mut vb = vec![0isize; (2 * half + 3) as usize];
        let at = |k: isize| (off + k) as usize;
        let mut run = 0u64;
        for d in 0..=half {
            if !self.spend(2 * d as u64 + 1) {
                return None;
            }
            let mut k = -d;
            while k <= d {
                let mut x = if k == -d || (k != d && vf[at(k - 1)] < vf[at(k + 1)]) {
                    vf[at(k + 1)]
                } else {
                    vf[at(k - 1)] + 1
                };
                let mut y = x - k;
                let start = (x, y);
                while x < n && y < m && a[x as usize] == b[y as usize] {
                    x += 1;
                    y += 1;
                }
                vf[at(k)] = x;
                run += (x - start.0) as u64;
                let c = delta - k;
                if odd && (-(d - 1)..=d - 1).contains(&c) && x >= n - vb[at(c)] {
                    return Some(snake(start, (x, y)));
                }
                k += 2;
            }
            if !self.spend(2 * d as u64 + 1) {
                return None;
            }
            let mut c = -d;
            while c <= d {
                let mut r = if c == -d || (c != d && vb[at(c - 1)] < vb[at(c + 1)]) {
                    vb[at(c + 1)]
                } else {
                    vb[at(c - 1)] + 1
                };
                let mut s = r - c;
                let start = (r, s);
                while r < n && s < m && a[(n - 1 - r) as usize] == b[(m - 1 - s) as usize] {
                    r += 1;
                    s += 1;
                }
                vb[at(c)] = r;
                run += (r - start.0) as u64;
                let k = delta - c;
                if !odd && (-d..=d).contains(&k) && vf[at(k)] >= n - r {
                    // In forward coordinates the snake runs from where the
                    // reverse run ended to where it began.
                    return Some(snake((n - r, m - s), (n - start.0, m - start.1)));
                }
                c += 2;
            }
            // The runs along equal elements of this round, paid after it.
            if !self.spend(std::mem::take(&mut run)) {
                return None;
            }
        }
        // Unreachable for valid input: the two searches meet by d = half.
        None
    }
}

fn snake(s: (isize, isize), e: (isize, isize)) -> Snake {
    ((s.0 as usize, s.1 as usize), (e.0 as usize, e.1 as usize))
}
