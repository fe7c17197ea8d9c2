//! Where the intercept code hooks sit: one on each intercepted instruction
//! while its page holds few, then one over the whole page.
//!
//! unicorn walks its whole list of code hooks for every instruction it
//! translates and again for every hooked instruction it runs, so a hook per
//! instruction made code dense in intercepts (FP code: every
//! single-precision instruction and the one after it, fp.rs) cost hooks ×
//! instructions. Here a page holds at most `EXACT_PER_PAGE` hooks of its
//! own; the next intercept on it replaces them with one hook over the page,
//! and neighbouring whole pages share one hook over their run, so the list
//! grows with the runs of pages dense in intercepts and the sparse pages,
//! never with the intercepts. A page hook calls `on_intercept` for every
//! instruction of the page that runs, and it returns at once for an address
//! the intercept table does not hold: a few spare calls on dense pages,
//! none on sparse ones (trap entry code, whose CSR accesses are a few a
//! page).

use unicorn_engine::Unicorn;

use crate::machine::code::intercept::on_intercept;
use crate::machine::code::state::{EXACT_PER_PAGE, PAGE, page_of};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;

/// An exact hook's body: nothing once its page went whole.
fn on_exact<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    if !uc
        .get_data()
        .code
        .smc
        .pages
        .whole
        .contains_key(&page_of(pc))
    {
        on_intercept(uc, pc);
    }
}

/// A run hook's body: nothing once a longer run took its pages over.
fn on_run<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64, serial: u64) {
    if uc.get_data().code.smc.pages.whole.get(&page_of(pc)) == Some(&serial) {
        on_intercept(uc, pc);
    }
}

/// Covers `page` whole, with the runs of whole pages on either side: one
/// hook over them all replaces theirs.
fn go_whole<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, page: u64) {
    let pages = &uc.get_data().code.smc.pages;
    let (mut first, mut last) = (page, page);
    let mut merged = Vec::new();
    for side in [page.wrapping_sub(PAGE), page.wrapping_add(PAGE)] {
        if let Some(&s) = pages.whole.get(&side)
            && let Some(&(f, l, _)) = pages.runs.get(&s)
        {
            first = first.min(f);
            last = last.max(l);
            merged.push(s);
        }
    }
    let serial = pages.serial + 1;
    let Ok(id) = uc.add_code_hook(first, last + PAGE - 1, move |uc, a, _| {
        crate::machine::guard::shield(uc, (), |uc| on_run(uc, a, serial))
    }) else {
        return;
    };
    let pages = &mut uc.get_data_mut().code.smc.pages;
    pages.serial = serial;
    for s in merged {
        if let Some((_, _, old)) = pages.runs.remove(&s) {
            pages.retired.push(old);
        }
    }
    let mut p = first;
    while p <= last {
        pages.whole.insert(p, serial);
        p += PAGE;
    }
    pages.runs.insert(serial, (first, last, id));
    let old = pages.exact.remove(&page).unwrap_or_default();
    pages.retired.extend(old.into_iter().map(|(_, id)| id));
}

/// Makes the intercept hook run at each of `pcs` (their page's, or one of
/// their own). Returns whether any had none before: code translated before
/// then lacks the call there. A page that would pass `EXACT_PER_PAGE` goes
/// whole at once, and code on it decoded later is translated with the
/// hook, so it needs no second translation.
pub(in crate::machine) fn hook_all<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    pcs: &[u64],
) -> bool {
    let mut new: Vec<u64> = {
        let pages = &uc.get_data().code.smc.pages;
        pcs.iter()
            .copied()
            .filter(|&pc| !pages.covers(pc))
            .collect()
    };
    new.sort_unstable();
    new.dedup();
    for group in new.chunk_by(|a, b| page_of(*a) == page_of(*b)) {
        let page = page_of(group[0]);
        let n = uc
            .get_data()
            .code
            .smc
            .pages
            .exact
            .get(&page)
            .map_or(0, Vec::len);
        if n + group.len() <= EXACT_PER_PAGE {
            for &pc in group {
                if let Ok(id) = uc.add_code_hook(pc, pc, |uc, a, _| {
                    crate::machine::guard::shield(uc, (), |uc| on_exact(uc, a))
                }) {
                    let pages = &mut uc.get_data_mut().code.smc.pages;
                    pages.exact.entry(page).or_default().push((pc, id));
                }
            }
            continue;
        }
        go_whole(uc, page);
    }
    !new.is_empty()
}

/// Removes the exact hooks of pages that went whole (outside emulation).
pub(in crate::machine) fn reap<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) {
    let retired = std::mem::take(&mut uc.get_data_mut().code.smc.pages.retired);
    for id in retired {
        let _ = uc.remove_hook(id);
    }
}
