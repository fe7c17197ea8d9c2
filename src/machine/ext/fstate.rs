//! sstatus.FS as events (priv spec §3.1.6.6 "Extension Context Status"):
//! Off, Initial, Clean, Dirty, each change with the instruction that made it.
//!
//! Unlike VS, FS is not shadowed: unicorn's QEMU 5.0 keeps it in mstatus and
//! sets it Dirty itself, in the translated code of every instruction that
//! writes an f register (`mark_fs_dirty`, once per translation block) and in
//! its fflags/frm/fcsr writes. trapscope reads it back. `Hart::fs_seen` is
//! only the value last reported, to tell a change; it never goes into QEMU.
//!
//! FS changes only through
//! - an instruction that writes FP state (an f register, fflags/frm/fcsr):
//!   found when its range retires (`split`), which cuts the range after it
//!   so that block mode and single steps report it at the same point;
//! - an sstatus/mstatus write, which trapscope runs itself (`csr.rs` calls
//!   `changed`);
//! - trapscope's own F/D emulation (`fp.rs`), which marks the instruction in
//!   `Hart::fs_by`.
//!
//! Trap entry and xRET leave FS alone (§3.1.6.1, §3.3.2); so does
//! `trap::deliver`, which rewrites only the xPP/xPIE/xIE fields.

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::isa::{Insn, Op, Reg};
use crate::machine::ext::fs::{FS_DIRTY, FS_INITIAL, FS_OFF, FS_SHIFT, dirties, fs_of};
use crate::machine::handle::Machine;
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::machine::regs::{self};
use crate::trace::Event;

/// FS as QEMU has it now.
fn read_fs<D>(uc: &mut Unicorn<'_, D>) -> u8 {
    fs_of(regs::read_csr(uc, crate::machine::traps::csr_rules::MSTATUS).unwrap_or(0))
}

/// What a change's cause says: the instruction and what it wrote.
fn cause<O: Observer>(hart: &mut Hart<O>, insn: &Insn, pc: u64) -> String {
    let text = crate::machine::ext::vs::described(hart, insn, pc);
    match (insn.op, insn.dest()) {
        (Op::Csr(_), _) => format!(
            "{text} writes {}",
            crate::isa::csr_name(insn.csr).unwrap_or("an FP CSR")
        ),
        (_, Some(Reg::F(_))) => format!("{text} writes an f register"),
        _ => format!("{text} sets fflags"),
    }
}

/// Records a change of FS to `to` made by the instruction at `pc`.
/// `why` is built only when FS does change (see `vs::set_vs`).
pub(in crate::machine) fn changed<O: Observer>(
    hart: &mut Hart<O>,
    to: u8,
    pc: u64,
    why: impl FnOnce(&mut Hart<O>) -> String,
) {
    let from = hart.ext.fs_seen;
    if from != to {
        hart.ext.fs_seen = to;
        let why = why(hart);
        hart.emit(Event::FsChange { from, to, pc, why });
    }
}

/// Takes QEMU's FS as the state already reported (at reset, after a
/// resume): a machine's starting state is no transition.
pub(in crate::machine) fn sync<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) {
    let fs = read_fs(uc);
    let hart = uc.get_data_mut();
    hart.ext.fs_seen = fs;
    hart.ext.fs_by = None;
}

/// A change of FS found in a range about to be reported: the range is cut
/// after instruction `at` (the pc after it is `after`), and the event is
/// emitted between the two parts.
pub(in crate::machine) struct Split {
    pub at: usize,
    pub after: u64,
    event: Event,
}

/// Before the pending block's instructions up to `to` are reported: the
/// instruction among them that changed FS, if one did, with FS already
/// taken as reported (so the caller can retire up to it, emit, and go on).
/// Cheap when nothing can have changed: FS Dirty leaves only by a status
/// write, and without an instruction that writes FP state nothing is read.
pub(in crate::machine) fn split<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    to: usize,
) -> Option<Split> {
    let hart = uc.get_data();
    if hart.ext.fs_seen == FS_DIRTY && hart.ext.fs_by.is_none() {
        return None;
    }
    let p = hart.pending.as_ref()?;
    let mut to = to.min(p.block.insns.len());
    // Nothing after the store to `tohost` ran (retire::finish).
    if let Some((_, xpc)) = hart.run.exit
        && let Some(i) = p.block.index_of(xpc)
        && i >= p.from
    {
        to = to.min(i + 1);
    }
    let by = hart.ext.fs_by;
    let (at, d) = match by {
        // Only the block's FP-state writers can have changed FS.
        None => {
            let k = *p
                .block
                .fs_dirties
                .iter()
                .find(|&&k| k as usize >= p.from && (k as usize) < to)?;
            (k as usize, &p.block.insns[k as usize])
        }
        Some(_) => p
            .block
            .insns
            .iter()
            .enumerate()
            .take(to)
            .skip(p.from)
            .find(|(_, d)| Some(d.pc) == by || d.insn.is_some_and(|i| dirties(&i)))?,
    };
    let (pc, insn) = (d.pc, d.insn?);
    let after = p
        .block
        .insns
        .get(at + 1)
        .map_or(pc + u64::from(d.len), |n| n.pc);
    let now = read_fs(uc);
    let hart = uc.get_data_mut();
    if hart.ext.fs_by == Some(pc) {
        hart.ext.fs_by = None;
    }
    if now == hart.ext.fs_seen {
        return None;
    }
    let from = std::mem::replace(&mut hart.ext.fs_seen, now);
    Some(Split {
        at,
        after,
        event: Event::FsChange {
            from,
            to: now,
            pc,
            why: cause(hart, &insn, pc),
        },
    })
}

/// Emits what `split` found, once the range up to it has been reported.
pub(in crate::machine) fn emit_split<O: Observer>(hart: &mut Hart<O>, s: Split) {
    hart.emit(s.event);
}

/// The FP register file as a debugger shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FpState {
    /// f0..f31, raw 64-bit patterns (a single is NaN-boxed in the low half).
    pub f: [u64; 32],
    /// fcsr: frm in bits 7:5, fflags in bits 4:0 (F spec §11.2).
    pub fcsr: u64,
    /// sstatus.FS.
    pub fs: u8,
}

impl<O: Observer + 'static> Machine<O> {
    /// sstatus.FS as the emulator has it.
    pub fn fs(&mut self) -> u8 {
        read_fs(&mut self.uc)
    }

    /// f0..f31 and fcsr. fcsr is out of reach with FS Off (QEMU's CSR
    /// check), so FS is set to Initial for the read and put back at once:
    /// nothing runs in between, and the guest sees no difference.
    pub fn fp_state(&mut self) -> FpState {
        let mut f = [0u64; 32];
        for (i, v) in f.iter_mut().enumerate() {
            *v = self.uc.reg_read(R::F0 as i32 + i as i32).unwrap_or(0);
        }
        let ms =
            regs::read_csr(&mut self.uc, crate::machine::traps::csr_rules::MSTATUS).unwrap_or(0);
        let fs = fs_of(ms);
        let fcsr = if fs == FS_OFF {
            let on = ms | u64::from(FS_INITIAL) << FS_SHIFT;
            regs::write_csr(&mut self.uc, crate::machine::traps::csr_rules::MSTATUS, on);
            let v = self.uc.reg_read(R::FCSR).unwrap_or(0);
            regs::write_csr(&mut self.uc, crate::machine::traps::csr_rules::MSTATUS, ms);
            v
        } else {
            self.uc.reg_read(R::FCSR).unwrap_or(0)
        };
        FpState {
            f,
            fcsr: fcsr & 0xff,
            fs,
        }
    }
}
