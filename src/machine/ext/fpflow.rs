//! NaN-boxing by block (unprivileged spec 20191213 §12.2 "NaN Boxing of
//! Narrower Values"), with hooks only where a block needs one.
//!
//! unicorn's QEMU 5.0 leaves the upper half of a single-precision result
//! zero (or, for `fmv.w.x`, x's upper half), and reads only the lower half
//! of a single input. Inside one block both are harmless: a single result
//! read as a single by a later instruction of the block gives what the
//! spec says. Three things are not, and each block's instructions are
//! scanned once, when it is decoded, for them:
//! - a 64-bit read (`fsd`, `fmv.x.d`, a D operation, `fcvt.s.d`) of a
//!   register whose last writer in the block was a native single result:
//!   that instruction is hooked, and the hook boxes what is pending first;
//! - a single read of a register the block loaded 64 bits into (`fld`,
//!   `fmv.d.x`, a D result): the instruction after that write is hooked to
//!   check the box. If it is not boxed, the block stops there and runs on as
//!   a new block, into which the register lives (below). The check sits
//!   after the write, not at the read, so a loop whose setup writes the
//!   register is not hooked inside the loop;
//! - a single read of a register the block does not write first (one that
//!   lives in): checked at the block's entry. While every such register is
//!   boxed the block runs natively; the first time one is not, its readers
//!   are hooked from then on and the block is translated again.
//!
//! The single results a block leaves pending are boxed when its
//! instructions are reported (`retire::finish`), before any hook, trap or
//! stop can look at them; `after` says, for each instruction, which
//! registers are pending once it ran, so a block cut short by a trap or a
//! stop boxes exactly what it wrote.

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::machine::hart::Hart;
use crate::machine::observe::Observer;

const BOX: u64 = 0xffff_ffff_0000_0000;

/// Boxes what the pending block's first `to` instructions left pending
/// (those before `boxed` already are).
pub(in crate::machine) fn box_to<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, to: usize) {
    let mask = {
        let hart = uc.get_data_mut();
        let Some(p) = hart.pending.as_mut() else {
            return;
        };
        let Some(flow) = p.block.fp.as_ref() else {
            return;
        };
        let to = to.min(flow.after.len());
        if to <= p.boxed {
            return;
        }
        p.boxed = to;
        flow.after[to - 1]
    };
    box_regs(uc, mask);
}

pub(in crate::machine) fn all_boxed<D>(uc: &Unicorn<'_, D>, mut mask: u32) -> bool {
    while mask != 0 {
        let r = mask.trailing_zeros();
        mask &= mask - 1;
        if uc.reg_read(R::F0 as i32 + r as i32).unwrap_or(0) & BOX != BOX {
            return false;
        }
    }
    true
}

/// A check at the pending block's instruction `idx` (at `pc`): if a 64-bit
/// value read as a single later in the block is not boxed, the block
/// stops before `pc` and the run goes on there, as a new block the value
/// lives into. Returns whether it stopped.
pub(in crate::machine) fn stop_unboxed<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    idx: usize,
    pc: u64,
) -> bool {
    let mask = {
        let Some(p) = uc.get_data().pending.as_ref() else {
            return false;
        };
        let Some(flow) = p.block.fp.as_ref() else {
            return false;
        };
        match flow.checks.binary_search_by_key(&idx, |c| c.0) {
            Ok(k) => flow.checks[k].1,
            Err(_) => return false,
        }
    };
    if all_boxed(uc, mask) {
        return false;
    }
    crate::machine::retire::finish(uc, idx, Some(pc), false);
    uc.get_data_mut().pending = None;
    let _ = uc.emu_stop();
    true
}

fn box_regs<D>(uc: &mut Unicorn<'_, D>, mut mask: u32) {
    while mask != 0 {
        let r = mask.trailing_zeros();
        mask &= mask - 1;
        let id = R::F0 as i32 + r as i32;
        let v = uc.reg_read(id).unwrap_or(0);
        if v & BOX != BOX {
            let _ = uc.reg_write(id, BOX | (v & 0xffff_ffff));
        }
    }
}

/// The pending block's instruction `idx` trapped or was run by trapscope:
/// what came before it is boxed, and what it would have left pending is
/// not (it wrote nothing natively).
pub(in crate::machine) fn settled_at<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, idx: usize) {
    box_to(uc, idx);
    if let Some(p) = uc.get_data_mut().pending.as_mut() {
        p.boxed = p.boxed.max(idx + 1);
    }
}
