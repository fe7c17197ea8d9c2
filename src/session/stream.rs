//! The stream of retired blocks (issue 14): for each range of a decoded
//! block that retired, which block and which of its instructions, in 8
//! bytes. Reverse-continue (`B`) searches it backwards for the last time
//! execution reached a breakpoint, however far back, and then goes there
//! by checkpoint; nothing re-executes to search.
//!
//! Instruction counts are not stored per entry: ranges follow one another,
//! so a range starts where the one before ended, except after the few
//! instructions that execute without retiring (an access fault delivered
//! as a trap), whose gaps are kept apart, and every `SYNC` entries the
//! count is kept, so a chunk can be read without the ones before it.

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// Entries per count kept.
const SYNC: usize = 4096;
/// The most entries kept: 128 MiB of them. Past it, the oldest half goes
/// (reverse-continue then re-executes to search what fell off).
const MAX_ENTRIES: usize = 1 << 24;

#[derive(Clone, Copy, Debug)]
struct Entry {
    block: u32,
    from: u16,
    len: u16,
}

/// Where a stream stood, for a checkpoint.
#[derive(Clone, Copy, Debug)]
pub struct StreamMark {
    entries: u64,
    next_at: u64,
}

#[derive(Debug, Default)]
pub struct BlockStream {
    /// Each decoded block's instruction addresses, by block id.
    blocks: Vec<Rc<[u64]>>,
    entries: Vec<Entry>,
    /// The absolute index of `entries[0]` (older ones were dropped).
    first: u64,
    /// The instruction count at each entry whose absolute index is a
    /// multiple of `SYNC`, from `first`'s chunk on.
    syncs: Vec<u64>,
    /// (absolute entry index, instructions executed unretired before it).
    gaps: Vec<(u64, u64)>,
    /// The instruction count the next entry starts at, if no gap.
    next_at: u64,
}

impl BlockStream {
    /// A new block's id (`Observer::build`).
    pub fn block(&mut self, pcs: impl Iterator<Item = u64>) -> u32 {
        self.blocks.push(pcs.collect());
        (self.blocks.len() - 1) as u32
    }

    fn end(&self) -> u64 {
        self.first + self.entries.len() as u64
    }

    /// Instructions `from..to` of block `block` retired, the first at
    /// instruction count `at`.
    pub fn push(&mut self, block: u32, at: u64, from: usize, to: usize) {
        let index = self.end();
        if self.entries.is_empty() && !index.is_multiple_of(SYNC as u64) {
            // A stream cut short (`truncate` past its front) resumes at a
            // chunk boundary, where a count is kept.
            self.first += 1;
            self.next_at = at + (to - from) as u64;
            return;
        }
        if at != self.next_at {
            self.gaps.push((index, at.wrapping_sub(self.next_at)));
        }
        if index.is_multiple_of(SYNC as u64) {
            self.syncs.push(at);
        }
        self.entries.push(Entry {
            block,
            from: from as u16,
            len: (to - from) as u16,
        });
        self.next_at = at + (to - from) as u64;
        if self.entries.len() >= MAX_ENTRIES {
            self.drop_front(MAX_ENTRIES / 2);
        }
    }

    /// Drops the oldest `n` entries (a multiple of `SYNC`).
    fn drop_front(&mut self, n: usize) {
        let n = n - n % SYNC;
        self.entries.drain(..n);
        self.syncs.drain(..n / SYNC);
        self.first += n as u64;
        let first = self.first;
        self.gaps.retain(|&(i, _)| i >= first);
    }

    /// The instruction count from which the stream is whole.
    pub fn starts_at(&self) -> u64 {
        if self.entries.is_empty() {
            self.next_at
        } else {
            self.syncs.first().copied().unwrap_or(self.next_at)
        }
    }

    pub fn mark(&self) -> StreamMark {
        StreamMark {
            entries: self.end(),
            next_at: self.next_at,
        }
    }

    /// Back to `m` (a checkpoint's): what came after it goes.
    pub fn truncate(&mut self, m: &StreamMark) {
        if m.entries < self.first {
            // It fell off the front: the stream starts again there.
            self.entries.clear();
            self.syncs.clear();
            self.gaps.clear();
            self.first = m.entries;
        } else {
            self.entries.truncate((m.entries - self.first) as usize);
            let chunks = (m.entries - self.first).div_ceil(SYNC as u64) as usize;
            self.syncs.truncate(chunks);
            let end = m.entries;
            self.gaps.retain(|&(i, _)| i < end);
        }
        self.next_at = m.next_at;
    }

    /// Heap bytes it holds.
    pub fn bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.syncs.capacity() * 8
            + self.blocks.iter().map(|b| b.len() * 8 + 16).sum::<usize>()
    }

    /// The last instruction count before `now` at which execution was
    /// about to run one of `addrs`, searching back to where the stream
    /// starts; `None` if none is in it.
    pub fn last_hit_before(&self, now: u64, addrs: &BTreeSet<u64>) -> Option<u64> {
        // The blocks holding a breakpoint, and at which of their indices.
        let mut hits: HashMap<u32, Vec<u16>> = HashMap::new();
        for (id, pcs) in self.blocks.iter().enumerate() {
            for (i, pc) in pcs.iter().enumerate() {
                if addrs.contains(pc) {
                    hits.entry(id as u32).or_default().push(i as u16);
                }
            }
        }
        if hits.is_empty() {
            return None;
        }
        // Chunk by chunk from the newest, each read forward from its count.
        let base_chunk = self.first / SYNC as u64;
        let mut chunk = (self.end().max(1) - 1) / SYNC as u64;
        let mut starts = Vec::with_capacity(SYNC);
        loop {
            let sync_i = (chunk - base_chunk) as usize;
            let lo = (chunk * SYNC as u64).max(self.first);
            let hi = ((chunk + 1) * SYNC as u64).min(self.end());
            let mut at = self.syncs.get(sync_i).copied()?;
            starts.clear();
            let mut g = self.gaps.partition_point(|&(i, _)| i < lo);
            for idx in lo..hi {
                if idx > lo
                    && let Some(&(gi, gap)) = self.gaps.get(g)
                    && gi == idx
                {
                    at += gap;
                    g += 1;
                } else if idx == lo && self.gaps.get(g).is_some_and(|&(gi, _)| gi == idx) {
                    g += 1; // the sync already counts it
                }
                starts.push(at);
                at += u64::from(self.entries[(idx - self.first) as usize].len);
            }
            for idx in (lo..hi).rev() {
                let e = self.entries[(idx - self.first) as usize];
                let Some(is) = hits.get(&e.block) else {
                    continue;
                };
                let start = starts[(idx - lo) as usize];
                let best = is
                    .iter()
                    .filter(|&&i| i >= e.from && i < e.from + e.len)
                    .map(|&i| start + u64::from(i - e.from))
                    .filter(|&p| p < now)
                    .max();
                if best.is_some() {
                    return best;
                }
            }
            if chunk == base_chunk {
                return None;
            }
            chunk -= 1;
        }
    }
}
