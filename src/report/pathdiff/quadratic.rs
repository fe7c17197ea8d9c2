//! The quadratic-space form of Myers' greedy search (the whole trace of
//! furthest points kept for the way back), kept as the oracle the
//! linear-space search (`snake.rs`) is tested against: the same edit
//! distance on any input.

use super::align::Op;

/// A shortest edit script by Myers' greedy O((N+M)D) search, keeping every
/// round's furthest points (O(D²) memory). Deletions come before
/// insertions in each gap.
pub fn myers<K: PartialEq>(a: &[K], b: &[K]) -> Vec<Op> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
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
