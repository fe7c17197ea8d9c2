//! The stream of retired blocks: for each range of a decoded
//! block that retired, which block and which of its instructions, in 8
//! bytes. Reverse-continue (`B`) searches it backwards for the last time
//! execution reached a breakpoint, however far back, and then goes there
//! by checkpoint; nothing re-executes to search.
//!
//! Instruction counts are not stored per entry: a range starts where the
//! one before ended, except after the few instructions that execute without
//! retiring (an access fault delivered as a trap), whose gaps are kept
//! apart; each chunk keeps the count it starts at. Sealed chunks are shared
//! by reference count, so a checkpoint holds the stream as it was by
//! copying the open chunk and a list of pointers.

use std::collections::{BTreeSet, VecDeque};
use std::rc::Rc;

/// Entries per chunk: what a checkpoint copies at most (8 KiB).
const CHUNK: usize = 1024;
/// Bytes of a chunk's entries.
const CHUNK_BYTES: usize = CHUNK * std::mem::size_of::<Entry>();
/// The most chunks kept by default: 32 MiB of entries, about 15 million
/// instructions of the syscall loop (the TUI sets its own share of the
/// history, `Stats::set_history`). Past it the oldest go (reverse-continue
/// then re-executes from a checkpoint to search what fell off).
const MAX_CHUNKS: usize = (32 << 20) / CHUNK_BYTES;

#[derive(Clone, Copy, Debug)]
struct Entry {
    block: u32,
    from: u16,
    len: u16,
}

#[derive(Clone, Debug, Default)]
struct Chunk {
    /// The instruction count its first entry starts at.
    at: u64,
    entries: Vec<Entry>,
    /// (index in `entries`, instructions executed unretired before it),
    /// for entries after the first.
    gaps: Vec<(u32, u64)>,
}

impl Chunk {
    /// Each entry with the instruction count it starts at.
    fn starts(&self) -> impl Iterator<Item = (&Entry, u64)> {
        let mut at = self.at;
        let mut g = self.gaps.iter().peekable();
        self.entries.iter().enumerate().map(move |(i, e)| {
            if let Some((_, gap)) = g.next_if(|(gi, _)| *gi as usize == i) {
                at += gap;
            }
            let start = at;
            at += u64::from(e.len);
            (e, start)
        })
    }
}

/// The ranges retired so far: what a checkpoint holds of the stream.
#[derive(Clone, Debug, Default)]
pub struct StreamRun {
    sealed: VecDeque<Rc<Chunk>>,
    open: Chunk,
    /// The instruction count the next entry starts at, if no gap.
    next_at: u64,
    /// Whether chunks fell off the front.
    cut: bool,
}

#[derive(Debug)]
pub struct BlockStream {
    /// Each decoded block's instruction addresses, by block id (these stay
    /// when the run goes back: decoded blocks keep their ids).
    blocks: Vec<Rc<[u64]>>,
    pub run: StreamRun,
    /// The most sealed chunks the live stream keeps (0: no stream).
    max_chunks: usize,
}

impl Default for BlockStream {
    fn default() -> Self {
        BlockStream {
            blocks: Vec::new(),
            run: StreamRun::default(),
            max_chunks: MAX_CHUNKS,
        }
    }
}

/// The share of the live stream's chunks a checkpoint keeps (1 MiB of the
/// default 32, half a million to two million instructions): more would
/// keep every chunk the live stream ever had alive in the checkpoints
/// spread over a long run (about 4 bytes an instruction). `B` from a
/// restored checkpoint searches these, and re-executes from an earlier
/// checkpoint for what lies before them.
const KEPT_PER: usize = 32;

impl StreamRun {
    /// The chunks, oldest first.
    fn chunks(&self) -> impl DoubleEndedIterator<Item = &Chunk> {
        self.sealed
            .iter()
            .map(|c| &**c)
            .chain(std::iter::once(&self.open))
    }

    /// The instruction count from which it is whole (0 unless its oldest
    /// chunks were dropped). With no stream kept, where it was cut: the
    /// open chunk's count, or the count after the last range retired.
    pub fn starts_at(&self) -> u64 {
        if !self.cut {
            return 0;
        }
        match self.sealed.front() {
            Some(c) => c.at,
            None if self.open.entries.is_empty() => self.next_at,
            None => self.open.at,
        }
    }

    /// This run with at most `keep` sealed chunks, the newest.
    pub fn trimmed(&self, keep: usize) -> StreamRun {
        let mut t = self.clone();
        while t.sealed.len() > keep {
            t.sealed.pop_front();
            t.cut = true;
        }
        t
    }

    /// Bytes of the sealed chunks it holds that `prev` does not hold too
    /// (the chunks are shared by reference count).
    pub fn chunk_bytes_beyond(&self, prev: Option<&StreamRun>) -> usize {
        let theirs: std::collections::HashSet<*const Chunk> = prev
            .map(|p| p.sealed.iter().map(Rc::as_ptr).collect())
            .unwrap_or_default();
        let mine = self
            .sealed
            .iter()
            .filter(|c| !theirs.contains(&Rc::as_ptr(c)))
            .count();
        mine * CHUNK_BYTES
    }

    /// The distinct sealed chunks all of `runs` hold, in bytes: what they
    /// keep alive, counted without the accounting above.
    pub fn held_bytes<'a>(runs: impl Iterator<Item = &'a StreamRun>) -> usize {
        let mut all = std::collections::HashSet::new();
        for r in runs {
            all.extend(r.sealed.iter().map(Rc::as_ptr));
        }
        all.len() * CHUNK_BYTES
    }

    /// Heap bytes of its own (sealed chunks are shared with checkpoints).
    pub fn unshared_bytes(&self) -> usize {
        self.open.entries.capacity() * std::mem::size_of::<Entry>()
            + self.sealed.len() * std::mem::size_of::<usize>()
    }
}

impl BlockStream {
    /// Keeps at most `bytes` of sealed chunks (whole chunks; less than one
    /// keeps no stream at all), dropping the oldest past it now.
    pub fn set_cap(&mut self, bytes: usize) {
        self.max_chunks = bytes / CHUNK_BYTES;
        let r = &mut self.run;
        while r.sealed.len() > self.max_chunks {
            r.sealed.pop_front();
            r.cut = true;
        }
        if self.max_chunks == 0 {
            r.open = Chunk::default();
            r.cut = true;
        }
    }

    /// The bytes of sealed chunks it keeps at most.
    pub fn cap(&self) -> usize {
        self.max_chunks * CHUNK_BYTES
    }

    /// Bytes of the sealed chunks it keeps now (what `set_cap` bounds).
    pub fn sealed_bytes(&self) -> usize {
        self.run.sealed.len() * CHUNK_BYTES
    }

    /// Sealed chunks a checkpoint keeps (`StreamRun::trimmed`).
    pub fn kept_chunks(&self) -> usize {
        self.max_chunks / KEPT_PER
    }

    /// A new block's id (`Observer::build`).
    pub fn block(&mut self, pcs: impl Iterator<Item = u64>) -> u32 {
        self.blocks.push(pcs.collect());
        (self.blocks.len() - 1) as u32
    }

    /// Instructions `from..to` of block `block` retired, the first at
    /// instruction count `at`.
    pub fn push(&mut self, block: u32, at: u64, from: usize, to: usize) {
        let r = &mut self.run;
        if self.max_chunks == 0 {
            r.next_at = at + (to - from) as u64;
            return;
        }
        if r.open.entries.len() == CHUNK {
            let full = std::mem::take(&mut r.open);
            r.sealed.push_back(Rc::new(full));
            if r.sealed.len() > self.max_chunks {
                r.sealed.pop_front();
                r.cut = true;
            }
        }
        if r.open.entries.is_empty() {
            r.open.at = at;
        } else if at != r.next_at {
            r.open
                .gaps
                .push((r.open.entries.len() as u32, at.wrapping_sub(r.next_at)));
        }
        r.open.entries.push(Entry {
            block,
            from: from as u16,
            len: (to - from) as u16,
        });
        r.next_at = at + (to - from) as u64;
    }

    /// The instruction count from which the stream is whole (0 unless its
    /// oldest chunks were dropped).
    pub fn starts_at(&self) -> u64 {
        self.run.starts_at()
    }

    /// Heap bytes it holds, the sealed chunks included.
    pub fn bytes(&self) -> usize {
        self.run.sealed.len() * CHUNK_BYTES
            + self.run.unshared_bytes()
            + self.blocks.iter().map(|b| b.len() * 8 + 16).sum::<usize>()
    }

    /// The last instruction count before `now` at which execution was
    /// about to run one of `addrs`, searching back to where the stream
    /// starts; `None` if none is in it.
    pub fn last_hit_before(&self, now: u64, addrs: &BTreeSet<u64>) -> Option<u64> {
        // The blocks holding a breakpoint, and at which of their indices.
        let hits: Vec<Vec<u16>> = self
            .blocks
            .iter()
            .map(|pcs| {
                pcs.iter()
                    .enumerate()
                    .filter(|(_, pc)| addrs.contains(pc))
                    .map(|(i, _)| i as u16)
                    .collect()
            })
            .collect();
        if hits.iter().all(Vec::is_empty) {
            return None;
        }
        let hit = |e: &Entry| {
            hits.get(e.block as usize)
                .is_some_and(|is| is.iter().any(|&x| x >= e.from && x < e.from + e.len))
        };
        let chunks = self.run.chunks();
        let mut starts = Vec::with_capacity(CHUNK);
        // Newest chunk first, each read forward from its count.
        for c in chunks.rev() {
            // Most chunks hold no hit: passed over without counting.
            if c.entries.is_empty() || c.at >= now || !c.entries.iter().any(hit) {
                continue;
            }
            starts.clear();
            starts.extend(c.starts().map(|(_, at)| at));
            for (i, e) in c.entries.iter().enumerate().rev() {
                let is = &hits[e.block as usize];
                if is.is_empty() {
                    continue;
                }
                let best = is
                    .iter()
                    .filter(|&&x| x >= e.from && x < e.from + e.len)
                    .map(|&x| starts[i] + u64::from(x - e.from))
                    .filter(|&p| p < now)
                    .max();
                if best.is_some() {
                    return best;
                }
            }
        }
        None
    }

    /// How many times execution was about to run `addr` at an instruction
    /// count in `from..to`; `None` if the stream does not reach back to
    /// `from` (its oldest chunks were dropped).
    pub fn hits_between(&self, from: u64, to: u64, addr: u64) -> Option<u64> {
        if from < self.starts_at() {
            return None;
        }
        let at_index: Vec<Option<u16>> = self
            .blocks
            .iter()
            .map(|pcs| pcs.iter().position(|&pc| pc == addr).map(|i| i as u16))
            .collect();
        let chunks = self.run.chunks();
        let mut n = 0;
        for c in chunks {
            if c.entries.is_empty() || c.at >= to {
                continue;
            }
            for (e, at) in c.starts() {
                if let Some(Some(x)) = at_index.get(e.block as usize)
                    && *x >= e.from
                    && *x < e.from + e.len
                {
                    let p = at + u64::from(x - e.from);
                    if p >= from && p < to {
                        n += 1;
                    }
                }
            }
        }
        Some(n)
    }
}
