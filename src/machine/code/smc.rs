//! Code the guest writes (docs/decisions.md D11): RAM is writable, so a
//! store may replace instructions that trapscope intercepts or has decoded.
//! A write over watched code drops the decoded blocks it touches and the
//! intercepts the written bytes no longer hold; when the code is decoded
//! again, the instructions trapscope must run itself are registered with
//! their code hooks (`register_block`) and the block is translated again.
//! The guest still needs `fence.i` before it runs the new code (unpriv
//! spec, Zifencei), as on hardware.

use unicorn_engine::Unicorn;

use crate::isa::decode_range;
use crate::isa::{Insn, Op};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;

/// Whether trapscope runs `i` itself (docs/decisions.md D4).
pub(in crate::machine) fn must_hook(i: &Insn) -> bool {
    crate::machine::traps::csr_rules::must_intercept(i)
        || crate::machine::ext::vs::is_vector_csr(i)
        || matches!(
            i.op,
            Op::Lr { .. } | Op::Sc { .. } | Op::Amo { .. } | Op::Vector | Op::Wfi
        )
        // TSR (csr.rs) and NaN-boxing (fp.rs): most of these run natively.
        || matches!(i.op, Op::Sret)
        || crate::machine::ext::fp::must_intercept(i)
}

/// The physical address of the instruction at virtual `pc` (write hooks
/// see physical addresses, blocks and intercepts are keyed by pc).
pub(in crate::machine) fn physical_pc<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) -> u64 {
    let p = uc.get_data().priv_;
    if !crate::machine::memory::mmu::paged(uc, p) {
        return pc;
    }
    crate::machine::memory::mmu::translate(uc, pc, crate::trace::Access::Fetch, p, false)
        .unwrap_or(pc)
}

/// `len` bytes of code at virtual `pc` (unicorn's memory API is physical),
/// empty if they are not memory.
pub(in crate::machine) fn read_code<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    pc: u64,
    len: usize,
) -> Vec<u8> {
    let pa = physical_pc(uc, pc);
    uc.mem_read_as_vec(pa, len).unwrap_or_default()
}

/// Drops unicorn's translations of virtual `start..end`, so that code hooks
/// added since are called there. unicorn finds the code's physical page
/// through the current privilege's translation and skips, silently, an
/// address that privilege may not fetch (a user page while the hart is in
/// S-mode): then the whole translation cache goes.
pub(in crate::machine) fn drop_translations<D>(uc: &mut Unicorn<'_, D>, start: u64, end: u64) {
    let p = crate::machine::regs::read_priv(uc);
    let fetchable = [start, end.saturating_sub(1).max(start)].iter().all(|&va| {
        crate::machine::memory::mmu::translate(uc, va, crate::trace::Access::Fetch, p, false)
            .is_ok()
    });
    let paged = p != crate::trace::Priv::M
        && crate::machine::regs::read_csr(uc, 0x180).unwrap_or(0) >> 60 != 0;
    if paged && !fetchable {
        let _ = uc.ctl_flush_tb();
    } else {
        let _ = uc.ctl_remove_cache(start, end);
    }
}

/// After a block was decoded outside the block hook (a single step, a trap
/// whose instruction no block covered): drop the translation of a block
/// that turned out to hold new intercepts, before unicorn runs it.
pub(in crate::machine) fn retranslate_fresh<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) {
    if let Some((s, e)) = uc.get_data_mut().code.smc.fresh.take() {
        drop_translations(uc, s, e);
    }
}

/// The length of the instruction at virtual `pc` (4 if it cannot be read).
pub(in crate::machine) fn insn_len_at<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) -> u8 {
    let b = read_code(uc, pc, 2);
    b.get(..2)
        .and_then(|b| crate::isa::insn_len(u16::from_le_bytes([b[0], b[1]])))
        .unwrap_or(4)
}

/// Drops the intercepts the `n` bytes of code at virtual `va0` no longer
/// hold (`bytes`, with 2 to spare for an instruction that starts at the
/// end). New ones are registered when the code is next decoded
/// (`register_block`), at real instruction starts.
fn rescan<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, va0: u64, bytes: &[u8], n: u64) {
    let mut off = 0u64;
    while off < n {
        let pc = va0.wrapping_add(off);
        if !uc.get_data().code.intercepts.contains_key(&pc) {
            off += 2;
            continue; // nothing to drop here
        }
        let one = &bytes[off as usize..(off as usize + 4).min(bytes.len())];
        let d = decode_range(pc, one).into_iter().next();
        if d.and_then(|d| d.insn).filter(must_hook).is_none() {
            uc.get_data_mut().code.intercepts.remove(&pc);
        }
        off += 2;
    }
}

/// `len` bytes at physical `addr` were (or, with `new`, are about to be) written.
pub(in crate::machine) fn code_written<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    addr: u64,
    len: u64,
    new: Option<&[u8]>,
) {
    if let Some(d) = uc.get_data_mut().dirty.as_mut() {
        d.mark(addr, len);
    }
    if len == 0 || !uc.get_data().code.smc.watches(addr, len) {
        return;
    }
    let end = addr.saturating_add(len);
    // Where the written bytes are code: at their virtual address in every
    // decoded block over them, and at the address itself (text scanned at
    // load, guests without paging).
    let (mut places, dropped) = uc.get_data_mut().code.blocks.remove_overlapping(addr, end);
    if !places.is_empty() && new.is_some() {
        crate::machine::traps::storm::note_code_write(uc.get_data_mut(), addr, dropped);
    }
    places.push(addr);
    places.sort_unstable();
    places.dedup();
    // Instructions covering a written byte start at most 2 bytes before it
    // (4-byte instructions, 2-byte alignment): every 2-byte offset from
    // there is checked, so every real instruction start is.
    let w0 = addr.saturating_sub(2) & !1;
    let w1 = end;
    // Only intercepts can be dropped: where none starts, the bytes need no
    // look (data beside code, an SC's store: one look-up an offset).
    let hooked = {
        let icpt = &uc.get_data().code.intercepts;
        places.iter().any(|&va| {
            let v0 = va.wrapping_sub(addr - w0);
            (0..w1 - w0)
                .step_by(2)
                .any(|off| icpt.contains_key(&v0.wrapping_add(off)))
        })
    };
    if hooked {
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
        for &va in &places {
            rescan(uc, va.wrapping_sub(addr - w0), &bytes, w1 - w0);
        }
    }
    // unicorn notices the guest's own stores to translated code (and drops
    // those translations after this hook); the code hooks above apply to the
    // new ones. Writes trapscope makes itself (`new` is None: the API, the V
    // unit) drop them here, by virtual address (the removal translates it
    // as a fetch). Never from inside a store: unicorn's TLB entry for the
    // store in progress must survive the hook.
    if new.is_none() {
        for va in places {
            let v0 = va.wrapping_sub(addr - w0);
            drop_translations(uc, v0, v0.wrapping_add(w1 + 2 - w0));
        }
    }
}
