//! Tracking the guest's writes to RAM for checkpoints, on the running hart:
//! the pages a checkpoint must compare (written since the last image, and
//! the page tables), and AMOs trapscope runs itself, which no write hook
//! sees. The set of pages is `dirty.rs`.

use unicorn_engine::Unicorn;

use crate::isa::{Insn, Op};
use crate::machine::checkpoint::dirty::PAGE;
use crate::machine::checkpoint::dirty::{Written, table_pages};
use crate::machine::hart::Hart;
use crate::machine::memory::mmu;
use crate::machine::observe::Observer;
use crate::machine::regs;
use crate::trace::Access;

/// Pages of each RAM region in `ram` that may differ from the machine's
/// last image: those written since, and the page-table pages of every root
/// in use since (sorted). Starts the next interval. `None`: compare all of
/// RAM (no tracking, or tables that cannot be found).
pub(in crate::machine) fn suspects<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    ram: &[(u64, u64)],
) -> Option<Vec<Vec<usize>>> {
    let satp = regs::read_csr(uc, 0x180).unwrap_or(0);
    let d = uc.get_data_mut().dirty.as_mut()?;
    let Written { mut pages, roots } = d.take();
    d.note_root(satp);
    for root in roots.into_iter().chain([satp]) {
        for pa in table_pages(uc, root, TABLES_MAX)? {
            if let Some((ri, &(s, _))) = ram
                .iter()
                .enumerate()
                .find(|(_, (s, e))| (*s..*e).contains(&pa))
            {
                pages[ri].push(((pa - s) / PAGE) as usize);
            }
        }
    }
    for p in &mut pages {
        p.sort_unstable();
        p.dedup();
    }
    Some(pages)
}

/// A new interval after RAM was set to an image by trapscope (a restore):
/// what it wrote is the image.
pub(in crate::machine) fn reset<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) {
    let satp = regs::read_csr(uc, 0x180).unwrap_or(0);
    if let Some(d) = uc.get_data_mut().dirty.as_mut() {
        d.take();
        d.note_root(satp);
    }
}

/// The most page-table pages looked at per root: beyond it, all of RAM is
/// compared (a guest with that many tables gains little from tracking).
const TABLES_MAX: usize = 4096;

/// An AMO about to run natively: QEMU's atomic helpers call no memory
/// hook, so its page is noted here (nothing is written if it faults).
pub(in crate::machine) fn note_amo<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, insn: &Insn) {
    if uc.get_data().dirty.is_none() {
        return;
    }
    let Op::Amo { width, .. } = insn.op else {
        return;
    };
    let va = regs::read_gpr(uc, insn.rs1);
    let p = mmu::data_priv(uc, uc.get_data().priv_);
    let Ok(pa) = mmu::translate(uc, va, Access::Write, p, false) else {
        return;
    };
    if let Some(d) = uc.get_data_mut().dirty.as_mut() {
        d.mark(pa, u64::from(width));
    }
}
