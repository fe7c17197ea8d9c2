//! Which RAM pages may differ from the machine's last image (the last
//! checkpoint taken or restored), so that taking and restoring a checkpoint
//! looks at those pages only, not at all of RAM.
//!
//! Three kinds of write change guest RAM:
//! - the guest's stores: a `MEM_WRITE` hook over each RAM region notes
//!   their pages (unicorn hands memory hooks physical addresses);
//! - trapscope's own writes (SC, the V unit, knobs, a restore), which all
//!   go through `smc::code_written`;
//! - writes no hook sees: unicorn's AMOs (QEMU's atomic helpers call no
//!   memory hook; the AMO intercept notes its address instead) and the A/D
//!   bits its page-table walk sets in a PTE. For the last, the page-table
//!   pages of every Sv39 root in use since the last image are compared too.
//!
//! Under another translation mode than Bare or Sv39 the tables cannot be
//! found, and the caller compares all of RAM, as without tracking.

use unicorn_engine::Unicorn;

pub(in crate::machine) const PAGE: u64 = 4096;

/// Pages written since the last image, by RAM region.
#[derive(Debug, Clone)]
pub struct Dirty {
    /// (start, end, one bit per page).
    regions: Vec<(u64, u64, Vec<u64>)>,
    /// satp values in use since the last image (besides the current one).
    roots: Vec<u64>,
}

/// What `Dirty::take` hands over: page indices by region, and satp roots.
pub struct Written {
    pub pages: Vec<Vec<usize>>,
    pub roots: Vec<u64>,
}

impl Dirty {
    pub fn new(ram: &[(u64, u64)]) -> Dirty {
        Dirty {
            regions: ram
                .iter()
                .map(|&(s, e)| {
                    (
                        s,
                        e,
                        vec![0; ((e - s).div_ceil(PAGE) as usize).div_ceil(64)],
                    )
                })
                .collect(),
            roots: Vec::new(),
        }
    }

    /// Notes a write of `len` bytes at physical `addr`.
    pub fn mark(&mut self, addr: u64, len: u64) {
        let last = addr.saturating_add(len.max(1) - 1);
        for (s, e, bits) in &mut self.regions {
            if last < *s || addr >= *e {
                continue;
            }
            let first = (addr.max(*s) - *s) / PAGE;
            let end = (last.min(*e - 1) - *s) / PAGE;
            for p in first..=end {
                bits[p as usize / 64] |= 1 << (p % 64);
            }
        }
    }

    /// Notes a satp value the hart ran with.
    pub fn note_root(&mut self, satp: u64) {
        if !self.roots.contains(&satp) {
            self.roots.push(satp);
        }
    }

    /// What was noted, and a clean slate.
    pub fn take(&mut self) -> Written {
        let pages = self
            .regions
            .iter_mut()
            .map(|(_, _, bits)| {
                let mut v = Vec::new();
                for (w, word) in bits.iter_mut().enumerate() {
                    let mut x = std::mem::take(word);
                    while x != 0 {
                        v.push(w * 64 + x.trailing_zeros() as usize);
                        x &= x - 1;
                    }
                }
                v
            })
            .collect();
        Written {
            pages,
            roots: std::mem::take(&mut self.roots),
        }
    }
}

/// The physical addresses of the page-table pages reachable from Sv39
/// `satp` (the root and every table below it, priv spec §4.3.2), at most
/// `limit` of them; `None` if `satp` selects a mode other than Bare or Sv39.
pub fn table_pages<D>(uc: &Unicorn<'_, D>, satp: u64, limit: usize) -> Option<Vec<u64>> {
    match satp >> 60 {
        0 => return Some(Vec::new()),
        8 => {}
        _ => return None,
    }
    let root = (satp & ((1 << 44) - 1)) << 12;
    let mut found = vec![root];
    let mut seen = std::collections::HashSet::from([root]);
    let mut todo = vec![(root, 2u32)];
    let mut buf = vec![0u8; PAGE as usize];
    while let Some((table, level)) = todo.pop() {
        if level == 0 || uc.mem_read(table, &mut buf).is_err() {
            continue;
        }
        for e in buf.chunks_exact(8) {
            let pte = u64::from_le_bytes(e.try_into().unwrap_or([0; 8]));
            // Valid, and neither R, W nor X: a pointer to the next level.
            if pte & 1 == 0 || pte & 0xe != 0 {
                continue;
            }
            let next = ((pte >> 10) & ((1 << 44) - 1)) << 12;
            if !seen.insert(next) {
                continue;
            }
            if found.len() >= limit {
                return None;
            }
            found.push(next);
            todo.push((next, level - 1));
        }
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_every_page_a_write_touches_and_take_clears() {
        let mut d = Dirty::new(&[(0x8000_0000, 0x8000_0000 + 64 * 4096 * 2), (0x1000, 0x3000)]);
        d.mark(0x8000_0ffe, 4); // straddles pages 0 and 1
        d.mark(0x8000_0000 + 100 * 4096, 8); // page 100, in the second word
        d.mark(0x2fff, 1); // the second region's last page
        d.mark(0x9000_0000, 8); // no RAM: nothing
        d.note_root(8 << 60 | 5);
        d.note_root(8 << 60 | 5);
        let w = d.take();
        assert_eq!(w.pages, vec![vec![0, 1, 100], vec![1]]);
        assert_eq!(w.roots, vec![8 << 60 | 5]);
        let again = d.take();
        assert_eq!(again.pages, vec![Vec::<usize>::new(), vec![]]);
        assert!(again.roots.is_empty());
    }
}
