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
//! instructions are reported (`hooks::finish`), before any hook, trap or
//! stop can look at them; `after` says, for each instruction, which
//! registers are pending once it ran, so a block cut short by a trap or a
//! stop boxes exactly what it wrote.

use std::cell::Cell;

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::isa::DecodedInsn;
use crate::isa::fp::reads;
use crate::isa::{Insn, Op};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;

const BOX: u64 = 0xffff_ffff_0000_0000;

/// An f register's state inside a block.
#[derive(Clone, Copy, PartialEq, Eq)]
enum St {
    /// As the block found it.
    Entry,
    /// A native single result, its upper half not yet set.
    Pending,
    /// Boxed (`flw` boxes what it loads).
    Boxed,
    /// 64 bits of any value (`fld`, a D result, `fmv.d.x`).
    Raw,
}

/// How one instruction uses the f registers.
#[derive(Default)]
struct Use {
    single_reads: u32,
    wide_reads: u32,
    write: Option<(u8, St)>,
    /// fmin/fmax: trapscope always runs them (fp.rs).
    always: bool,
}

fn bit(r: u8) -> u32 {
    1 << (r & 31)
}

fn uses(i: &Insn) -> Use {
    let mut u = Use::default();
    match i.op {
        Op::Fp => {
            let Some(r) = reads(i.raw) else { return u };
            let srcs = [i.rs1, i.rs2, ((i.raw >> 27) & 31) as u8];
            let mask = srcs[..usize::from(r.f_inputs)]
                .iter()
                .fold(0, |m, &s| m | bit(s));
            if r.single {
                u.single_reads = mask;
            } else if r.name != "fmv.x.w" {
                // fmv.x.w moves the lower half's bits, boxed or not.
                u.wide_reads = mask;
            }
            u.always = r.minmax;
            if !r.int_dest {
                // fmin/fmax of two numbers run natively too (fp.rs).
                let st = if r.single_dest { St::Pending } else { St::Raw };
                u.write = Some((i.rd, st));
            }
        }
        Op::FpLoad { width } => {
            // QEMU 5.0's flw boxes what it loads.
            u.write = Some((i.rd, if width == 4 { St::Boxed } else { St::Raw }));
        }
        Op::FpStore { width: 8 } => u.wide_reads = bit(i.rs2),
        // Vector instructions are hooked anyway (every hook boxes first);
        // `vfmv.f.s` (OPFVV, funct6 010000) writes an f register.
        Op::Vector if i.raw & 0x7f == 0x57 && (i.raw >> 12) & 7 == 1 && i.raw >> 26 == 0x10 => {
            u.write = Some((i.rd, St::Raw));
        }
        _ => {}
    }
    u
}

/// A block's NaN-boxing plan.
pub struct FpFlow {
    /// Per instruction, the registers holding a pending single once it ran.
    after: Vec<u32>,
    /// Registers read as singles before the block writes them.
    live_in: u32,
    /// (instruction index, registers): a 64-bit value the instruction
    /// before it wrote is read as a single later in the block.
    checks: Vec<(usize, u32)>,
    /// The instructions making those reads.
    entry_readers: Vec<u64>,
    /// Their hooks are in (an entry check failed once).
    slow: Cell<bool>,
}

/// The scan of a decoded block: its plan (none if it leaves nothing to
/// box and reads no single it did not write) and the instructions that need
/// a hook for NaN-boxing.
pub struct Scan {
    pub flow: Option<FpFlow>,
    pub hooks: Vec<u64>,
    /// Where `checks` sit.
    pub check_pcs: Vec<u64>,
}

pub fn scan(insns: &[DecodedInsn]) -> Scan {
    let mut st = [St::Entry; 32];
    let mut after = Vec::with_capacity(insns.len());
    let (mut pending, mut live_in, mut any) = (0u32, 0u32, false);
    let mut entry_readers = Vec::new();
    let mut hooks = Vec::new();
    let mut raw_at = [0usize; 32];
    let mut checks: Vec<(usize, u32)> = Vec::new();
    for (k, d) in insns.iter().enumerate() {
        let u = d.insn.as_ref().map(uses).unwrap_or_default();
        let mut hook = u.always;
        for r in 0..32u8 {
            let b = bit(r);
            if u.wide_reads & b != 0 && st[usize::from(r)] == St::Pending {
                hook = true;
            }
            if u.single_reads & b != 0 {
                match st[usize::from(r)] {
                    St::Entry => {
                        live_in |= b;
                        if entry_readers.last() != Some(&d.pc) {
                            entry_readers.push(d.pc);
                        }
                    }
                    St::Raw => {
                        let at = raw_at[usize::from(r)] + 1;
                        match checks.iter_mut().find(|c| c.0 == at) {
                            Some(c) => c.1 |= b,
                            None => checks.push((at, b)),
                        }
                    }
                    St::Pending | St::Boxed => {}
                }
            }
        }
        if let Some((rd, s)) = u.write {
            st[usize::from(rd & 31)] = s;
            raw_at[usize::from(rd & 31)] = k;
            if s == St::Pending {
                pending |= bit(rd);
                any = true;
            } else {
                pending &= !bit(rd);
            }
        }
        if hook {
            hooks.push(d.pc);
        }
        after.push(pending);
    }
    checks.sort_unstable();
    let check_pcs = checks.iter().map(|c| insns[c.0].pc).collect();
    let flow = (any || live_in != 0 || !checks.is_empty()).then(|| FpFlow {
        after,
        live_in,
        checks,
        entry_readers,
        slow: Cell::new(false),
    });
    Scan {
        flow,
        hooks,
        check_pcs,
    }
}

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

fn all_boxed<D>(uc: &Unicorn<'_, D>, mut mask: u32) -> bool {
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
    crate::machine::hooks::finish(uc, idx, Some(pc), false);
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

/// At a block's entry: whether the singles it reads before writing are all
/// boxed. If one is not, its readers get their hooks (fp.rs then reads the
/// canonical NaN there), and `smc.fresh` asks for the block to be
/// translated again when any hook is new.
pub(in crate::machine) fn check_entry<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    block: &crate::machine::code::block::Block<O::BlockData>,
) {
    let Some(flow) = block.fp.as_ref() else {
        return;
    };
    if flow.live_in == 0 || flow.slow.get() {
        return;
    }
    if all_boxed(uc, flow.live_in) {
        return;
    }
    flow.slow.set(true);
    for d in &block.insns {
        if flow.entry_readers.binary_search(&d.pc).is_ok()
            && let Some(i) = d.insn
        {
            uc.get_data_mut().code.intercepts.insert(d.pc, i);
        }
    }
    if crate::machine::code::hookpages::hook_all(uc, &flow.entry_readers) {
        uc.get_data_mut().code.smc.fresh = Some((block.start, block.end.max(block.start + 1)));
    }
}
