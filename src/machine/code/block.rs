//! Decoded blocks: the unit of accounting in run mode (docs/decisions.md D6).
//!
//! A block is the run of instructions unicorn translated together; we decode
//! it once, let the observer build its per-block table once, and cache both.

use crate::machine::code::pchash::PcMap;
use std::rc::Rc;

use crate::isa::{self, DecodedInsn};

pub struct Block<D> {
    pub start: u64,
    pub end: u64,
    /// The physical address of `start` (the same without paging). A block
    /// never crosses a page, so it covers `phys..phys + (end - start)`.
    pub phys: u64,
    pub insns: Vec<DecodedInsn>,
    /// The observer's table for this block, built once.
    pub data: D,
    /// Indices of the instructions that can make sstatus.FS Dirty
    /// (`fstate::dirties`), so that `fstate::split` need not look at the
    /// others each time the block retires.
    pub fs_dirties: Vec<u32>,
    /// Some instruction is a CSR access or `sfence.vma`: only then has
    /// `hooks::post_retire` anything to look for in a retired range.
    pub system: bool,
    /// Its NaN-boxing plan (fpflow.rs), if it has F instructions.
    pub fp: Option<crate::machine::ext::fpscan::FpFlow>,
}

impl<D> Block<D> {
    pub fn new(
        start: u64,
        end: u64,
        phys: u64,
        insns: Vec<DecodedInsn>,
        data: D,
        fp: Option<crate::machine::ext::fpscan::FpFlow>,
    ) -> Block<D> {
        let fs_dirties = (0..insns.len() as u32)
            .filter(|&k| {
                insns[k as usize]
                    .insn
                    .is_some_and(|i| crate::machine::ext::fs::dirties(&i))
            })
            .collect();
        let system = insns.iter().any(|d| {
            d.insn
                .is_some_and(|i| matches!(i.op, isa::Op::Csr(_) | isa::Op::SfenceVma))
        });
        Block {
            start,
            end,
            phys,
            insns,
            data,
            fs_dirties,
            system,
            fp,
        }
    }

    /// Index of the instruction at `pc`, if it starts one in this block.
    pub fn index_of(&self, pc: u64) -> Option<usize> {
        if pc < self.start || pc >= self.end {
            return None;
        }
        self.insns.binary_search_by_key(&pc, |i| i.pc).ok()
    }
}

/// Blocks by (start, size in bytes), and their keys by 64-byte line of
/// physical memory, so a write to code looks only at the blocks on the
/// lines it touches (a page can hold thousands of small blocks).
pub struct BlockCache<D> {
    map: PcMap<(u64, u32), Rc<Block<D>>>,
    by_line: PcMap<u64, Vec<(u64, u32)>>,
}

impl<D> Default for BlockCache<D> {
    fn default() -> Self {
        BlockCache {
            map: PcMap::default(),
            by_line: PcMap::default(),
        }
    }
}

const LINE_SHIFT: u32 = 6;

impl<D> BlockCache<D> {
    pub fn get(&self, start: u64, size: u32) -> Option<Rc<Block<D>>> {
        self.map.get(&(start, size)).cloned()
    }
    /// Drops every block with a byte at physical `[start, end)` (code was
    /// written there); returns the virtual address `start` has in each,
    /// and how many instructions the dropped blocks held (what decoding
    /// them again costs).
    pub fn remove_overlapping(&mut self, start: u64, end: u64) -> (Vec<u64>, u64) {
        let mut at = Vec::new();
        let mut dropped = 0u64;
        if end <= start {
            return (at, dropped);
        }
        for line in (start >> LINE_SHIFT)..=((end - 1) >> LINE_SHIFT) {
            let Some(keys) = self.by_line.get_mut(&line) else {
                continue;
            };
            keys.retain(|k| {
                let Some(b) = self.map.get(k) else {
                    return false; // dropped already
                };
                let pend = b.phys + (b.end - b.start);
                if pend <= start || b.phys >= end {
                    return true;
                }
                at.push(b.start.wrapping_add(start.wrapping_sub(b.phys)));
                dropped += b.insns.len() as u64;
                self.map.remove(k);
                false
            });
        }
        (at, dropped)
    }
    /// Drops every block: the page tables changed (a satp write or an
    /// `sfence.vma`), so a virtual address may now hold other code.
    pub fn clear(&mut self) {
        self.map.clear();
        self.by_line.clear();
    }
    pub fn insert(&mut self, size: u32, block: Block<D>) -> Rc<Block<D>> {
        let rc = Rc::new(block);
        let key = (rc.start, size);
        let last = rc.phys + (rc.end - rc.start).max(1) - 1;
        for line in (rc.phys >> LINE_SHIFT)..=(last >> LINE_SHIFT) {
            self.by_line.entry(line).or_default().push(key);
        }
        self.map.insert(key, rc.clone());
        rc
    }
}
