//! Where the kernel saved each trap's registers, its `struct pt_regs`: the
//! sp at the kernel's save point, recorded by a code hook as the guest runs
//! (no guest state changes, so block mode and stepping stay alike).
//!
//! The save point is `mv a0, sp` (`is_save`) in `handle_exception`
//! or `handle_exception_ras`: both the minikernel's entry
//! (guest-asm/include/minikernel-entry.inc) and Linux's
//! (arch/riscv/kernel/entry.S) have just filled the frame at sp there and
//! pass it to the handler in a0 (`do_trap_ecall_u(struct pt_regs *regs)`).
//! A trap that never reaches it (one taken to M-mode firmware, or a fault
//! inside the save itself) has no recorded frame.

use unicorn_engine::Unicorn;

use crate::isa::{AluOp, Insn, Op};
use crate::machine::debug::state::KEEP;
use crate::machine::error::LoadError;
use crate::machine::handle::Machine;
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::machine::regs;

/// The functions whose `mv a0, sp` is the save point.
pub const SAVE_FUNCS: [&str; 2] = ["handle_exception", "handle_exception_ras"];

/// The minikernel's `struct pt_regs` (guest-asm/include/minikernel-defs.inc,
/// `PT_*`): Linux's riscv layout, one 8-byte slot per name, at 8 × index.
pub const MINIKERNEL_PT_REGS: [&str; 36] = [
    "epc", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6", "status", "badaddr", "cause", "orig_a0",
];

/// `mv a0, sp`: `addi a0, sp, 0`, or `c.mv a0, sp`, which expands to
/// `add a0, x0, sp` (unprivileged spec, "C.MV").
pub fn is_save(i: &Insn) -> bool {
    i.rd == 10
        && match i.op {
            Op::AluImm(AluOp::Add) => i.rs1 == 2 && i.imm == 0,
            Op::Alu(AluOp::Add) => (i.rs1, i.rs2) == (0, 2) || (i.rs1, i.rs2) == (2, 0),
            _ => false,
        }
}

/// Hooks the save instructions of a newly decoded block (inside a save
/// function); returns whether it added any, so the block is translated
/// again with them.
pub(in crate::machine) fn register<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    insns: &[crate::isa::DecodedInsn],
) -> bool {
    let mut any = false;
    for d in insns {
        let inside = {
            let saves = &uc.get_data().debug.saves;
            saves
                .ranges
                .iter()
                .any(|&(lo, hi)| lo <= d.pc && d.pc <= hi)
                && !saves.hooked.contains(&d.pc)
        };
        if !inside || !d.insn.is_some_and(|i| is_save(&i)) {
            continue;
        }
        if uc
            .add_code_hook(d.pc, d.pc, |uc, addr, _| {
                crate::machine::guard::shield(uc, (), |uc| on_code(uc, addr))
            })
            .is_ok()
        {
            uc.get_data_mut().debug.saves.hooked.insert(d.pc);
            any = true;
        }
    }
    any
}

/// The hook on a save instruction: records sp at the save.
fn on_code<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    let hart = uc.get_data();
    let found = hart.pending.as_ref().and_then(|p| {
        let i = p.block.index_of(pc)?;
        Some((i.saturating_sub(p.from) as u64, p.block.insns[i].insn?))
    });
    let (ahead, insn) = match found {
        Some(f) => f,
        None => {
            let bytes = crate::machine::code::smc::read_code(uc, pc, 4);
            match crate::isa::decode_range(pc, &bytes)
                .first()
                .and_then(|d| d.insn)
            {
                Some(i) => (0, i),
                None => return,
            }
        }
    };
    if !is_save(&insn) {
        return;
    }
    let sp = regs::read_gpr(uc, 2);
    let hart = uc.get_data_mut();
    let at = hart.executed + ahead;
    let ring = &mut hart.debug.saves.ring;
    // The same instruction seen again (a block stopped before it, then
    // run as a step) is one save.
    if ring.back().is_some_and(|&(a, _)| a == at) {
        ring.pop_back();
    }
    if ring.len() == KEEP {
        ring.pop_front();
    }
    ring.push_back((at, sp));
}

impl<O: Observer + 'static> Machine<O> {
    /// Notes where the save functions are; their save instructions get a
    /// hook of their own when their blocks are first decoded (`register`).
    /// A hook over the whole functions would run on each of their
    /// instructions, and make unicorn walk it at every other hooked one.
    pub(in crate::machine) fn install_frame_hooks(&mut self) -> Result<(), LoadError> {
        let ranges: Vec<(u64, u64)> = SAVE_FUNCS
            .iter()
            .filter_map(|name| self.program.symbol(name).filter(|s| s.size > 0))
            .map(|s| (s.addr, s.addr + s.size - 1))
            .collect();
        self.uc.get_data_mut().debug.saves.ranges = ranges;
        Ok(())
    }

    /// The address of the pt_regs the kernel saved for the trap taken when
    /// `at` instructions had executed: sp at the first save point reached
    /// after it (recorded as the hook reaches it: the frame is whole then,
    /// and `mv a0, sp` does not move sp), and before `before` (the count at
    /// the next trap nested in it, whose save would be that trap's).
    pub fn trap_frame(&self, at: u64, before: Option<u64>) -> Option<u64> {
        let hart = self.uc.get_data();
        // Stopped at a save instruction its hook has not reached (a stop
        // hook placed before it ran first): the frame is whole here too.
        let pc = self.pc();
        let here = hart
            .debug
            .saves
            .hooked
            .contains(&pc)
            .then(|| (hart.executed, self.gpr(2)));
        hart.debug
            .saves
            .ring
            .iter()
            .copied()
            .chain(here)
            .find(|&(a, _)| a >= at && before.is_none_or(|b| a < b))
            .map(|(_, sp)| sp)
    }
}
