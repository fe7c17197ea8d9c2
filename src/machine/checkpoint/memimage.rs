//! RAM at one moment, for checkpoints: 4 KiB pages, each shared with the
//! previous image wherever it is unchanged, held in groups of `GROUP` pages
//! that are themselves shared when none of their pages changed. So an image
//! of 128 MiB of which a few pages changed costs a few pages, a few groups
//! of pointers and one pointer per group, not one pointer per page.

use std::rc::Rc;

use unicorn_engine::Unicorn;

/// The page size RAM is copied and compared in.
pub const PAGE: usize = 4096;
/// Pages per group.
const GROUP: usize = 64;

type Group = Rc<Vec<Rc<[u8]>>>;

/// RAM at one moment: per region, its pages (shared between images).
#[derive(Clone, Debug)]
pub struct MemImage {
    regions: Vec<Region>,
}

#[derive(Clone, Debug)]
struct Region {
    start: u64,
    groups: Vec<Group>,
}

impl Region {
    fn page(&self, i: usize) -> Option<&Rc<[u8]>> {
        self.groups.get(i / GROUP)?.get(i % GROUP)
    }

    #[cfg(test)]
    fn pages(&self) -> usize {
        self.groups.iter().map(|g| g.len()).sum()
    }
}

impl MemImage {
    /// The page holding physical `addr`, if it is RAM.
    pub fn page(&self, addr: u64) -> Option<&[u8]> {
        self.regions.iter().find_map(|r| {
            let off = addr.checked_sub(r.start)? as usize / PAGE;
            r.page(off).map(|p| &p[..])
        })
    }

    /// Pages of `self` that are not the very pages of `other`.
    pub fn unshared_pages(&self, other: Option<&MemImage>) -> usize {
        let mut n = 0;
        for (ri, r) in self.regions.iter().enumerate() {
            let theirs = other.and_then(|o| o.regions.get(ri));
            for (gi, g) in r.groups.iter().enumerate() {
                let tg = theirs.and_then(|t| t.groups.get(gi));
                if tg.is_some_and(|t| Rc::ptr_eq(g, t)) {
                    continue;
                }
                n += g
                    .iter()
                    .enumerate()
                    .filter(|(i, p)| !tg.and_then(|t| t.get(*i)).is_some_and(|q| Rc::ptr_eq(p, q)))
                    .count();
            }
        }
        n
    }

    /// Heap bytes of pointers `self` holds that `other` does not share:
    /// one per group, and the groups of their own.
    pub fn pointer_bytes(&self, other: Option<&MemImage>) -> usize {
        let mut n = 0;
        for (ri, r) in self.regions.iter().enumerate() {
            n += r.groups.len() * std::mem::size_of::<Group>();
            let theirs = other.and_then(|o| o.regions.get(ri));
            for (gi, g) in r.groups.iter().enumerate() {
                if !theirs
                    .and_then(|t| t.groups.get(gi))
                    .is_some_and(|t| Rc::ptr_eq(g, t))
                {
                    n += g.len() * std::mem::size_of::<Rc<[u8]>>();
                }
            }
        }
        n
    }

    /// Indices of the pages of region `ri` that are not the very pages of
    /// `other`'s (whole groups shared are skipped).
    fn not_shared_with(&self, other: &MemImage, ri: usize) -> Vec<usize> {
        let (Some(a), Some(b)) = (self.regions.get(ri), other.regions.get(ri)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (gi, g) in a.groups.iter().enumerate() {
            let h = b.groups.get(gi);
            if h.is_some_and(|h| Rc::ptr_eq(g, h)) {
                continue;
            }
            for (i, p) in g.iter().enumerate() {
                if !h.and_then(|h| h.get(i)).is_some_and(|q| Rc::ptr_eq(p, q)) {
                    out.push(gi * GROUP + i);
                }
            }
        }
        out
    }
}

/// Calls `f(index, bytes)` for each page of RAM `start..end`, read a
/// megabyte at a time into one buffer (a snapshot's 128 MiB read into a
/// fresh allocation would spend more on the host's page faults than on the
/// copy).
fn for_each_page<D>(uc: &Unicorn<'_, D>, start: u64, end: u64, mut f: impl FnMut(usize, &[u8])) {
    const STEP: usize = 256 * PAGE;
    let mut buf = vec![0u8; STEP.min((end - start) as usize)];
    let mut at = start;
    let mut index = 0;
    while at < end {
        let n = STEP.min((end - at) as usize);
        let chunk = &mut buf[..n];
        if uc.mem_read(at, chunk).is_err() {
            chunk.fill(0);
        }
        for page in chunk.chunks(PAGE) {
            f(index, page);
            index += 1;
        }
        at += n as u64;
    }
}

/// Reads RAM region `start..end` whole.
pub(in crate::machine) fn read_region<D>(uc: &Unicorn<'_, D>, start: u64, end: u64) -> Vec<u8> {
    uc.mem_read_as_vec(start, (end - start) as usize)
        .unwrap_or_default()
}

/// Reads page `i` of the region at `start` into `buf` (zeros if unreadable).
fn read_page<'b, D>(uc: &Unicorn<'_, D>, start: u64, i: usize, buf: &'b mut [u8]) -> &'b [u8] {
    if uc.mem_read(start + (i * PAGE) as u64, buf).is_err() {
        buf.fill(0);
    }
    buf
}

/// RAM `ram` (start, end per region) now, sharing every page equal to
/// `base`'s. With `suspects` (page indices per region: the only pages that
/// may differ from `base`), only those are read; else all of RAM.
pub(in crate::machine) fn capture<D>(
    uc: &Unicorn<'_, D>,
    ram: &[(u64, u64)],
    base: Option<&MemImage>,
    suspects: Option<Vec<Vec<usize>>>,
) -> MemImage {
    if let (Some(base), Some(suspects)) = (base, suspects) {
        let mut image = base.clone();
        let mut buf = vec![0u8; PAGE];
        for (r, which) in image.regions.iter_mut().zip(suspects) {
            for i in which {
                let Some(old) = r.page(i) else { continue };
                let now = read_page(uc, r.start, i, &mut buf[..old.len()]);
                if old[..] != *now {
                    let fresh = Rc::from(now);
                    Rc::make_mut(&mut r.groups[i / GROUP])[i % GROUP] = fresh;
                }
            }
        }
        return image;
    }
    let regions = ram
        .iter()
        .enumerate()
        .map(|(ri, &(start, end))| {
            let old = base.and_then(|b| b.regions.get(ri));
            let mut groups: Vec<Group> = Vec::new();
            let mut group: Vec<Rc<[u8]>> = Vec::with_capacity(GROUP);
            let mut all_old = true;
            let mut close = |group: &mut Vec<Rc<[u8]>>, all_old: &mut bool, gi: usize| {
                let kept = old
                    .and_then(|o| o.groups.get(gi))
                    .filter(|g| *all_old && g.len() == group.len());
                groups.push(match kept {
                    Some(g) => g.clone(),
                    None => Rc::new(std::mem::replace(group, Vec::with_capacity(GROUP))),
                });
                group.clear();
                *all_old = true;
            };
            for_each_page(uc, start, end, |i, now| {
                let page = match old.and_then(|o| o.page(i)) {
                    Some(p) if p[..] == *now => p.clone(),
                    _ => {
                        all_old = false;
                        Rc::from(now)
                    }
                };
                group.push(page);
                if group.len() == GROUP {
                    close(&mut group, &mut all_old, i / GROUP);
                }
            });
            let pages_done = ((end - start) as usize).div_ceil(PAGE);
            if !group.is_empty() {
                close(&mut group, &mut all_old, pages_done / GROUP);
            }
            Region { start, groups }
        })
        .collect();
    MemImage { regions }
}

/// The pages of RAM that differ from `want`, per region. `have`: the image
/// RAM was last set to or taken as, with `suspects` the pages that may have
/// changed since; without both, all of RAM is compared.
pub(in crate::machine) fn differing<D>(
    uc: &Unicorn<'_, D>,
    ram: &[(u64, u64)],
    have: Option<&MemImage>,
    suspects: Option<Vec<Vec<usize>>>,
    want: &MemImage,
) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); ram.len()];
    let mut buf = vec![0u8; PAGE];
    for (ri, &(start, end)) in ram.iter().enumerate() {
        let Some(w) = want.regions.get(ri) else {
            continue;
        };
        match (have, suspects.as_ref().and_then(|s| s.get(ri))) {
            (Some(have), Some(which)) => {
                let mut which = which.clone();
                which.extend(want.not_shared_with(have, ri));
                which.sort_unstable();
                which.dedup();
                for i in which {
                    let Some(p) = w.page(i) else { continue };
                    if read_page(uc, start, i, &mut buf[..p.len()]) != &p[..] {
                        out[ri].push(i);
                    }
                }
            }
            _ => for_each_page(uc, start, end, |i, now| {
                if w.page(i).is_some_and(|p| now != &p[..]) {
                    out[ri].push(i);
                }
            }),
        }
    }
    out
}

/// Page `i` of region `ri` of `image`, and where it goes.
pub(in crate::machine) fn page_at(image: &MemImage, ri: usize, i: usize) -> Option<(u64, &[u8])> {
    let r = image.regions.get(ri)?;
    Some((r.start + (i * PAGE) as u64, &r.page(i)?[..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(pages: &[&[u8]]) -> MemImage {
        let all: Vec<Rc<[u8]>> = pages.iter().map(|p| Rc::from(*p)).collect();
        MemImage {
            regions: vec![Region {
                start: 0x1000,
                groups: all.chunks(GROUP).map(|c| Rc::new(c.to_vec())).collect(),
            }],
        }
    }

    #[test]
    fn pages_and_groups_shared_are_not_counted_twice() {
        let zero = [0u8; 8];
        let a = image(&vec![&zero[..]; GROUP * 2 + 3]);
        let mut b = a.clone();
        assert_eq!(b.unshared_pages(Some(&a)), 0);
        assert_eq!(b.not_shared_with(&a, 0), Vec::<usize>::new());
        Rc::make_mut(&mut b.regions[0].groups[1])[5] = Rc::from(&[1u8; 8][..]);
        assert_eq!(b.unshared_pages(Some(&a)), 1);
        assert_eq!(b.not_shared_with(&a, 0), vec![GROUP + 5]);
        assert_eq!(
            b.page(0x1000 + ((GROUP + 5) * PAGE) as u64),
            Some(&[1u8; 8][..])
        );
        assert_eq!(b.regions[0].pages(), GROUP * 2 + 3);
        // One group of its own: its pointers, besides one per group.
        let ptr = std::mem::size_of::<Rc<[u8]>>();
        let gp = std::mem::size_of::<Group>();
        assert_eq!(b.pointer_bytes(Some(&a)), 3 * gp + GROUP * ptr);
        assert_eq!(b.unshared_pages(None), GROUP * 2 + 3);
    }
}
