//! The code sub-room's part of the hart's state: decoded blocks, the
//! intercepted instructions, watched code and where intercept hooks sit.
//! Types only; what acts on them is in the sibling files.

use std::collections::HashMap;

use unicorn_engine::UcHookId;

use crate::machine::code::pchash::PcMap;

/// The hart's decoded code: blocks, the instructions trapscope runs itself,
/// and the code pages it watches for writes.
pub(in crate::machine) struct CodeState<D> {
    pub blocks: crate::machine::code::block::BlockCache<D>,
    pub intercepts: PcMap<u64, crate::isa::Insn>,
    /// Watched code and intercept hooks, for code the guest writes (`smc.rs`).
    pub smc: SmcState,
}

impl<D> Default for CodeState<D> {
    fn default() -> Self {
        CodeState {
            blocks: Default::default(),
            intercepts: Default::default(),
            smc: Default::default(),
        }
    }
}

/// Where writes are watched and where intercept code hooks sit.
#[derive(Default)]
pub(in crate::machine) struct SmcState {
    /// Ranges (inclusive) with a MEM_WRITE hook: the text segments.
    pub(in crate::machine) watched: Vec<(u64, u64)>,
    /// Where intercept code hooks sit (hookpages.rs).
    pub pages: crate::machine::code::state::HookPages,
    /// A block just decoded holds intercepts its translation has no hooks
    /// for: its range, to translate again.
    pub fresh: Option<(u64, u64)>,
}

impl SmcState {
    pub fn watches(&self, addr: u64, len: u64) -> bool {
        let last = addr.wrapping_add(len.max(1) - 1);
        self.watched.iter().any(|&(s, e)| addr <= e && last >= s)
    }
}

/// Exact hooks a page may hold before one page hook replaces them.
pub(in crate::machine) const EXACT_PER_PAGE: usize = 16;

pub(in crate::machine) const PAGE: u64 = 0x1000;

pub(in crate::machine) fn page_of(pc: u64) -> u64 {
    pc & !(PAGE - 1)
}

#[derive(Default)]
pub(in crate::machine) struct HookPages {
    /// Per page, its exact hooks: (pc, hook).
    pub(in crate::machine) exact: HashMap<u64, Vec<(u64, UcHookId)>>,
    /// Pages a hook covers whole: the serial of the run of pages it covers.
    pub(in crate::machine) whole: PcMap<u64, u64>,
    /// Runs of whole pages by serial: first page, last page, hook.
    pub(in crate::machine) runs: HashMap<u64, (u64, u64, UcHookId)>,
    pub(in crate::machine) serial: u64,
    /// Exact hooks of pages that went whole, removed before unicorn runs
    /// again (`reap`): a hook cannot be removed from inside a callback,
    /// where its own closure may be the one running. Until then each
    /// returns at once (`on_exact`), so no instruction is dispatched twice.
    pub(in crate::machine) retired: Vec<UcHookId>,
}

impl HookPages {
    /// Whether an intercept hook is called at `pc`.
    pub fn covers(&self, pc: u64) -> bool {
        let page = page_of(pc);
        self.whole.contains_key(&page)
            || self
                .exact
                .get(&page)
                .is_some_and(|v| v.iter().any(|&(a, _)| a == pc))
    }

    /// The intercept code hooks in unicorn's list once the retired ones
    /// are reaped.
    pub fn live(&self) -> usize {
        self.runs.len() + self.exact.values().map(Vec::len).sum::<usize>()
    }
}
