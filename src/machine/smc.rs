//! Code the guest writes (DESIGN.md decision 11): RAM is writable, so a
//! store may replace instructions that trapscope intercepts or has decoded.
//! A write over watched code drops the decoded blocks it touches, re-scans
//! the written bytes for instructions trapscope must run itself (adding or
//! removing intercepts and their code hooks), and drops unicorn's
//! translations of them. The guest still needs `fence.i` before it runs
//! the new code (unpriv spec, Zifencei), as on hardware.

use unicorn_engine::Unicorn;
use unicorn_engine::unicorn_const::HookType;

use super::block::decode_range;
use super::hart::Hart;
use super::hooks;
use super::observe::Observer;
use super::{csr, vec};
use crate::isa::{Insn, Op};

/// Where writes are watched and where intercept code hooks sit.
#[derive(Default)]
pub(super) struct SmcState {
    /// Ranges (inclusive) with a MEM_WRITE hook: the text segments.
    watched: Vec<(u64, u64)>,
    /// Ranges (inclusive) covered by an intercept code hook.
    hooked: Vec<(u64, u64)>,
}

impl SmcState {
    pub fn note_hooked(&mut self, start: u64, end: u64) {
        self.hooked.push((start, end));
    }

    pub fn watches(&self, addr: u64, len: u64) -> bool {
        let last = addr.wrapping_add(len.max(1) - 1);
        self.watched.iter().any(|&(s, e)| addr <= e && last >= s)
    }
}

/// Whether trapscope runs `i` itself (DESIGN.md decision 4).
pub(super) fn must_hook(i: &Insn) -> bool {
    csr::must_intercept(i)
        || vec::is_vector_csr(i)
        || matches!(
            i.op,
            Op::Lr { .. } | Op::Sc { .. } | Op::Amo { .. } | Op::Vector | Op::Wfi
        )
        // TSR (csr.rs) and NaN-boxing (fp.rs): most of these run natively.
        || matches!(i.op, Op::Sret)
        || super::fp::must_intercept(i)
}

/// Watches guest writes to `[start, end]` (a text segment): only code
/// pages get the hook, so ordinary stores pay one range check.
pub(super) fn watch<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    start: u64,
    end: u64,
) -> Result<(), unicorn_engine::unicorn_const::uc_error> {
    uc.add_mem_hook(
        HookType::MEM_WRITE,
        start,
        end,
        |uc, _, addr, size, value| {
            // The hook runs before the store lands: decode what it will write.
            let new = value.to_le_bytes();
            let n = size.min(8);
            code_written(uc, addr, n as u64, Some(&new[..n]));
            true
        },
    )?;
    uc.get_data_mut().smc.watched.push((start, end));
    Ok(())
}

/// Code decoded outside the watched ranges (RAM is executable, so a guest
/// may run code it put in a data page): watch its pages from now on, so a
/// later write there drops the decoded block.
pub(super) fn watch_code<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, start: u64, end: u64) {
    if end <= start || uc.get_data().smc.watches(start, end - start) {
        return;
    }
    // Watches are physical and decoded blocks virtual: with paging on the
    // two do not line up, so only code at physical addresses is watched.
    let p = uc.get_data().priv_;
    if super::access::paged(uc, p) {
        return;
    }
    let (p0, p1) = (start & !0xfff, (end - 1) | 0xfff);
    let _ = watch(uc, p0, p1);
}

/// `len` bytes at `addr` were (or, with `new`, are about to be) written.
/// Puts the intercept hook on `pc` unless a hook range covers it already.
fn hook_at<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    let covered = uc
        .get_data()
        .smc
        .hooked
        .iter()
        .any(|&(s, e)| s <= pc && pc <= e);
    if !covered
        && uc
            .add_code_hook(pc, pc, |uc, a, _| hooks::on_intercept(uc, a))
            .is_ok()
    {
        uc.get_data_mut().smc.note_hooked(pc, pc);
    }
}

pub(super) fn code_written<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    addr: u64,
    len: u64,
    new: Option<&[u8]>,
) {
    if len == 0 || !uc.get_data().smc.watches(addr, len) {
        return;
    }
    let end = addr.saturating_add(len);
    uc.get_data_mut().blocks.remove_overlapping(addr, end);
    // Instructions covering a written byte start at most 2 bytes before it
    // (4-byte instructions, 2-byte alignment). Decoding at every 2-byte
    // offset finds every real instruction start; an entry at an offset that
    // is not one is never reached (code hooks fire at instruction starts).
    let w0 = addr.saturating_sub(2) & !1;
    let w1 = end;
    let Ok(mut bytes) = uc.mem_read_as_vec(w0, (w1 + 2 - w0) as usize) else {
        return;
    };
    if let Some(new) = new {
        let at = (addr - w0) as usize;
        for (i, b) in new.iter().enumerate() {
            if let Some(slot) = bytes.get_mut(at + i) {
                *slot = *b;
            }
        }
    }
    let mut pc = w0;
    while pc < w1 {
        let off = (pc - w0) as usize;
        let d = decode_range(pc, &bytes[off..]).into_iter().next();
        let hook = d.and_then(|d| d.insn).filter(must_hook);
        let hart = uc.get_data_mut();
        match hook {
            Some(i) => {
                hart.intercepts.insert(pc, i);
                hook_at(uc, pc);
                // A single-precision result is NaN-boxed at the next
                // instruction's hook (fp.rs), as install_hooks arranges.
                if let Some(site) = super::fp::fixup_site(pc, &i) {
                    hook_at(uc, site);
                }
            }
            None => {
                hart.intercepts.remove(&pc);
            }
        }
        pc += 2;
    }
    // unicorn notices the guest's own stores to translated code (and drops
    // those translations after this hook); the code hooks above apply to the
    // new ones. Writes trapscope makes itself (`new` is None: the API, the V
    // unit) drop them here. Not from inside a store (unicorn's TLB entry for
    // it must survive the hook), and only with instruction translation off:
    // the cache removal translates its address as a fetch.
    let p = uc.get_data().priv_;
    if new.is_none() && !super::access::paged(uc, p) {
        let _ = uc.ctl_remove_cache(w0, w1 + 2);
    }
}
