//! Where the intercept code hooks sit: one on each intercepted instruction
//! while its page holds few, then one over the whole page.
//!
//! unicorn walks its whole list of code hooks for every instruction it
//! translates and again for every hooked instruction it runs, so a hook per
//! instruction made code dense in intercepts (FP code: every
//! single-precision instruction and the one after it, fp.rs) cost hooks ×
//! instructions. Here a page holds at most `EXACT_PER_PAGE` hooks of its
//! own; the next intercept on it replaces them with one hook over the page,
//! so the list grows with the pages that hold intercepts, never with the
//! intercepts. A page hook calls `on_intercept` for every instruction of
//! the page that runs, and it returns at once for an address the intercept
//! table does not hold: a few spare calls on dense pages, none on sparse
//! ones (trap entry code, whose CSR accesses are a few a page).

use std::collections::HashMap;

use unicorn_engine::{UcHookId, Unicorn};

use super::hart::Hart;
use super::hooks;
use super::observe::Observer;
use super::pchash::PcSet;

/// Exact hooks a page may hold before one page hook replaces them.
pub(super) const EXACT_PER_PAGE: usize = 16;
const PAGE: u64 = 0x1000;

fn page_of(pc: u64) -> u64 {
    pc & !(PAGE - 1)
}

#[derive(Default)]
pub(super) struct HookPages {
    /// Per page, its exact hooks: (pc, hook).
    exact: HashMap<u64, Vec<(u64, UcHookId)>>,
    /// Pages with one hook over the whole page.
    whole: PcSet<u64>,
    /// Exact hooks of pages that went whole, removed before unicorn runs
    /// again (`reap`): a hook cannot be removed from inside a callback,
    /// where its own closure may be the one running. Until then each
    /// returns at once (`on_exact`), so no instruction is dispatched twice.
    retired: Vec<UcHookId>,
}

impl HookPages {
    /// Whether an intercept hook is called at `pc`.
    pub fn covers(&self, pc: u64) -> bool {
        let page = page_of(pc);
        self.whole.contains(&page)
            || self
                .exact
                .get(&page)
                .is_some_and(|v| v.iter().any(|&(a, _)| a == pc))
    }

    /// The intercept code hooks in unicorn's list once the retired ones
    /// are reaped.
    pub fn live(&self) -> usize {
        self.whole.len() + self.exact.values().map(Vec::len).sum::<usize>()
    }
}

/// An exact hook's body: nothing once its page went whole.
fn on_exact<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    if !uc.get_data().smc.pages.whole.contains(&page_of(pc)) {
        hooks::on_intercept(uc, pc);
    }
}

/// Makes the intercept hook run at each of `pcs` (their page's, or one of
/// their own). Returns whether any had none before: code translated before
/// then lacks the call there. A page that would pass `EXACT_PER_PAGE` goes
/// whole at once, and code on it decoded later is translated with the
/// hook, so it needs no second translation.
pub(super) fn hook_all<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pcs: &[u64]) -> bool {
    let mut new: Vec<u64> = {
        let pages = &uc.get_data().smc.pages;
        pcs.iter().copied().filter(|&pc| !pages.covers(pc)).collect()
    };
    new.sort_unstable();
    new.dedup();
    for group in new.chunk_by(|a, b| page_of(*a) == page_of(*b)) {
        let page = page_of(group[0]);
        let n = uc.get_data().smc.pages.exact.get(&page).map_or(0, Vec::len);
        if n + group.len() <= EXACT_PER_PAGE {
            for &pc in group {
                if let Ok(id) = uc.add_code_hook(pc, pc, |uc, a, _| on_exact(uc, a)) {
                    let pages = &mut uc.get_data_mut().smc.pages;
                    pages.exact.entry(page).or_default().push((pc, id));
                }
            }
            continue;
        }
        if uc
            .add_code_hook(page, page + PAGE - 1, |uc, a, _| hooks::on_intercept(uc, a))
            .is_ok()
        {
            let pages = &mut uc.get_data_mut().smc.pages;
            pages.whole.insert(page);
            let old = pages.exact.remove(&page).unwrap_or_default();
            pages.retired.extend(old.into_iter().map(|(_, id)| id));
        }
    }
    !new.is_empty()
}

/// Removes the exact hooks of pages that went whole (outside emulation).
pub(super) fn reap<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) {
    let retired = std::mem::take(&mut uc.get_data_mut().smc.pages.retired);
    for id in retired {
        let _ = uc.remove_hook(id);
    }
}
