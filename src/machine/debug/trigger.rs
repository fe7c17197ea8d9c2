//! One debug trigger of type 2 (`mcontrol`), per the RISC-V Debug
//! Specification 1.0, chapter "Sdtrig": the trigger CSRs tselect (0x7a0),
//! tdata1 (0x7a1), tdata2 (0x7a2) and tinfo (0x7a4), and the breakpoint
//! exception (cause 3, action 0) it raises before an instruction at, or a
//! load/store touching, the address in tdata2. Guests use it as a hardware
//! breakpoint or watchpoint.
//!
//! Supported: select=0 (address), timing=0 (before), action=0, chain=0,
//! match=0 (equal), size any; the m/s/u and execute/store/load bits. Other
//! field values are WARL: a write asking for them leaves a disabled trigger
//! (execute/store/load clear) rather than one that fires where the guest did
//! not ask. tdata3 and tcontrol are not implemented: no implemented trigger
//! uses them, so accessing them is an illegal instruction ("Sdtrig").
//!
//! Re-entrancy follows the first of the spec's two options ("Native
//! Triggers"): a trigger does not match in M-mode while mstatus.MIE=0, nor,
//! when medeleg[3]=1, in S-mode while sstatus.SIE=0.
//!
//! The trigger is a code hook: at tdata2 for an execute trigger, on every
//! instruction while a load or store trigger is armed (it then checks each
//! memory access's effective address before the access); none when it is
//! disarmed, so blocks run at full speed. Single steps are checked before
//! they run (`Machine::trigger_gate`).

use unicorn_engine::Unicorn;

use crate::isa::{Insn, Op};
use crate::machine::debug::state::{
    EXECUTE, HookAt, LOAD, M, S, STORE, TDATA1, TDATA2, Trigger, U, peek,
};
use crate::machine::handle::Machine;
use crate::machine::hart::{Hart, Outcome};
use crate::machine::observe::Observer;
use crate::machine::regs::{self, status};
use crate::machine::traps::cause;
use crate::machine::traps::trap;
use crate::trace::{GuestFault, Priv};

/// A guest access to a trigger CSR (already checked to come from M-mode):
/// returns the old value, or `None` for an illegal access. A write stops
/// emulation after this instruction, so that the run loop moves the execute
/// hook and switches between blocks and checked single steps.
pub fn csr_access<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    pc: u64,
    csr: u16,
    write: Option<&dyn Fn(u64) -> u64>,
) -> Option<u64> {
    let hart = uc.get_data_mut();
    let t = hart.debug.trigger;
    let old = peek(&t, csr)?;
    let Some(apply) = write else {
        return Some(old);
    };
    let new = apply(old);
    match csr {
        TDATA1 => hart.debug.trigger.ctl = Trigger::legalize(new),
        TDATA2 => hart.debug.trigger.tdata2 = new,
        // tselect holds only 0 (WARL); tinfo is read-only, and a write to
        // it is legal and ignored (Sdtrig: "tinfo ... R").
        _ => {}
    }
    let shown = peek(&hart.debug.trigger, csr).unwrap_or(0);
    hart.emit(crate::trace::Event::CsrWrite {
        pc,
        csr,
        old: Some(old),
        new: shown,
    });
    let _ = uc.emu_stop();
    Some(old)
}

/// The addresses an instruction accesses and how: (lowest address, size,
/// load, store). `None` for an instruction that touches no memory.
pub(in crate::machine) fn accesses<D>(
    uc: &Unicorn<'_, D>,
    insn: &Insn,
) -> Option<(u64, u64, bool, bool)> {
    let base = regs::read_gpr(uc, insn.rs1);
    let at = base.wrapping_add(insn.imm as u64);
    Some(match insn.op {
        Op::Load { width, .. } | Op::FpLoad { width } => (at, u64::from(width), true, false),
        Op::Store { width } | Op::FpStore { width } => (at, u64::from(width), false, true),
        // Sdtrig "A Extension": LR is a load, SC a store (whether a failing
        // SC is one is unspecified: here it always is), an AMO both.
        Op::Lr { width } => (base, u64::from(width), true, false),
        Op::Sc { width } => (base, u64::from(width), false, true),
        Op::Amo { width, .. } => (base, u64::from(width), true, true),
        _ => return None,
    })
}

/// Why the instruction at `pc` cannot run while a data trigger is armed.
pub enum Check {
    /// It runs.
    Run,
    /// The trigger fires: a breakpoint exception with this xtval.
    Fire(u64),
    /// A vector load/store: its element addresses are the V unit's, which
    /// trapscope does not check against triggers yet.
    Unsupported,
}

/// Whether the trigger fires before `insn` at `pc` executes (timing=0).
/// Execute matches the instruction's address; loads and stores match when
/// tdata2 is any byte accessed (select=0: "It is recommended that there are
/// additional compare values for the other accessed virtual addresses"),
/// and xtval is that address ("the address being accessed and which caused
/// that trigger to fire").
pub fn check<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64, insn: Option<&Insn>) -> Check {
    let hart = uc.get_data();
    let t = hart.debug.trigger;
    let p = hart.priv_;
    let mode_bit = match p {
        Priv::M => M,
        Priv::S => S,
        _ => U,
    };
    if !t.armed() || t.ctl & mode_bit == 0 {
        return Check::Run;
    }
    // What would fire, cheapest tests first (this runs before every
    // instruction while a load/store trigger is armed).
    let exec_hit = t.ctl & EXECUTE != 0 && pc == t.tdata2;
    let hit = if exec_hit {
        Check::Fire(pc)
    } else if let Some(insn) = insn.filter(|_| t.ctl & (LOAD | STORE) != 0) {
        if matches!(insn.op, Op::Vector) {
            // Vector loads/stores sit in the LOAD-FP/STORE-FP opcodes.
            if matches!(insn.raw & 0x7f, 0x07 | 0x27) {
                Check::Unsupported
            } else {
                Check::Run
            }
        } else {
            match accesses(uc, insn) {
                Some((lo, size, load, store))
                    if ((load && t.ctl & LOAD != 0) || (store && t.ctl & STORE != 0))
                        && t.tdata2.wrapping_sub(lo) < size =>
                {
                    Check::Fire(t.tdata2)
                }
                _ => Check::Run,
            }
        }
    } else {
        Check::Run
    };
    if matches!(hit, Check::Run) {
        return hit;
    }
    // Re-entrancy (Sdtrig "Native Triggers", option 1).
    let ms = regs::read_csr(uc, 0x300).unwrap_or(0);
    let medeleg = regs::read_csr(uc, 0x302).unwrap_or(0);
    let masked = match p {
        Priv::M => ms & status::MIE == 0,
        Priv::S => medeleg & (1 << 3) != 0 && ms & status::SIE == 0,
        _ => false,
    };
    // An FP access with FS=Off is an illegal instruction, which has
    // priority over a data breakpoint (priv spec table 3.7).
    let fp_off = !exec_hit
        && insn.is_some_and(|i| matches!(i.op, Op::FpLoad { .. } | Op::FpStore { .. }))
        && ms & status::FS == 0;
    if masked || fp_off { Check::Run } else { hit }
}

/// What the run loop does with the instruction at the pc before a step.
pub(in crate::machine) enum Gate {
    /// Run it.
    Run,
    /// End the step with this outcome (the trigger fired, or a fault).
    Stop(Outcome),
}

/// The trigger's code hook, in block mode (single steps are checked by
/// `Machine::trigger_gate` before they run, and the hook does nothing then).
pub(in crate::machine) fn on_code<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    before(uc, pc);
}

/// Checks the trigger before the instruction at `pc` runs and, if it fires,
/// delivers the breakpoint (or ends the run for an unsupported access).
/// Returns whether it did. Called by the trigger's hook and by
/// `on_intercept`, whichever unicorn runs first for an address both hook:
/// once the first has delivered the breakpoint or emulated the instruction
/// the pc has moved, and the other does nothing.
pub(in crate::machine) fn before<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) -> bool {
    let hart = uc.get_data();
    let watching = !hart.debug.watch.watches.is_empty();
    if hart.run.stepping || !(hart.debug.trigger.armed() || watching) {
        return false;
    }
    if !hart.debug.trigger.watches_data() && !watching && hart.debug.trigger.exec_addr() != Some(pc)
    {
        return false;
    }
    if uc.reg_read(unicorn_engine::RegisterRISCV::PC).ok() != Some(pc) {
        return false;
    }
    let idx = uc
        .get_data()
        .pending
        .as_ref()
        .and_then(|p| p.block.index_of(pc));
    let insn = match idx {
        Some(i) => uc
            .get_data()
            .pending
            .as_ref()
            .and_then(|p| p.block.insns[i].insn),
        None => {
            let bytes = uc.mem_read_as_vec(pc, 4).unwrap_or_default();
            crate::isa::decode_range(pc, &bytes)
                .first()
                .and_then(|d| d.insn)
        }
    };
    match check(uc, pc, insn.as_ref()) {
        // No trigger fired: a watched access stops before it (watch.rs).
        Check::Run => crate::machine::debug::watch::before_in_block(uc, pc, idx, insn.as_ref()),
        Check::Fire(tval) => {
            // Executed, not retired, as any instruction that traps.
            if let Some(i) = idx {
                crate::machine::ext::fpflow::settled_at(uc, i);
            }
            crate::machine::retire::finish(uc, idx.map_or(0, |i| i + 1), None, false);
            trap::raise(uc, cause::CAUSE_BREAKPOINT, pc, tval);
            true
        }
        Check::Unsupported => {
            crate::machine::retire::finish(uc, idx.unwrap_or(0), None, false);
            let place = uc.get_data().traps.faults.describe(pc);
            crate::machine::retire::fault(uc, unsupported(pc, insn.as_ref(), place));
            true
        }
    }
}

fn unsupported(pc: u64, insn: Option<&Insn>, place: String) -> GuestFault {
    GuestFault::Unsupported {
        pc,
        encoding: insn.map_or(0, |i| i.raw),
        why: "a vector load/store while a load/store debug trigger is armed".into(),
        place,
    }
}

impl<O: Observer + 'static> Machine<O> {
    /// Keeps the trigger's code hook where the trigger needs it (called
    /// between emulator runs, where adding hooks and dropping translations
    /// is safe; a trigger CSR write stops emulation to get here).
    pub(in crate::machine) fn sync_trigger_hook(&mut self) {
        let hart = self.uc.get_data();
        let want = hart
            .debug
            .trigger
            .hook_at(!hart.debug.watch.watches.is_empty());
        if self.trigger_hook.map(|h| h.0) == want {
            return;
        }
        if let Some((at, id)) = self.trigger_hook.take() {
            let _ = self.uc.remove_hook(id);
            self.drop_translations(at);
        }
        let Some(at) = want else { return };
        let (lo, hi) = match at {
            HookAt::Addr(a) => (a, a),
            HookAt::All => (1, 0), // begin > end: every address
        };
        if let Ok(id) = self.uc.add_code_hook(lo, hi, |uc, addr, _| {
            crate::machine::guard::shield(uc, (), |uc| on_code(uc, addr))
        }) {
            self.drop_translations(at);
            self.trigger_hook = Some((at, id));
        }
    }

    /// Translated code calls only the hooks that existed when it was made.
    fn drop_translations(&mut self, at: HookAt) {
        match at {
            HookAt::Addr(a) => {
                crate::machine::code::smc::drop_translations(&mut self.uc, a, a.wrapping_add(4))
            }
            HookAt::All => {
                let _ = self.uc.ctl_flush_tb();
            }
        }
    }

    /// Before a single step: the trigger fires instead of the instruction
    /// (a breakpoint exception: the instruction is executed but does not
    /// retire, like any instruction that traps), or it runs.
    pub(in crate::machine) fn trigger_gate(&mut self, pc: u64) -> Gate {
        self.prepare_step(pc);
        let insn = self
            .uc
            .get_data()
            .pending
            .as_ref()
            .and_then(|p| p.block.insns.first().and_then(|d| d.insn));
        match check(&mut self.uc, pc, insn.as_ref()) {
            Check::Run => {
                // The access it makes, checked once it ran (watch.rs).
                crate::machine::debug::watch::arm(&mut self.uc, pc, insn.as_ref());
                Gate::Run
            }
            Check::Fire(tval) => {
                crate::machine::ext::fpflow::settled_at(&mut self.uc, 0);
                crate::machine::retire::finish(&mut self.uc, 1, None, false);
                trap::raise(&mut self.uc, cause::CAUSE_BREAKPOINT, pc, tval);
                let hart = self.uc.get_data_mut();
                hart.run.stepping = false;
                Gate::Stop(Outcome::Stepped)
            }
            Check::Unsupported => {
                let place = self.uc.get_data().traps.faults.describe(pc);
                let f = unsupported(pc, insn.as_ref(), place);
                crate::machine::retire::fault(&mut self.uc, f.clone());
                let hart = self.uc.get_data_mut();
                hart.run.outcome = None;
                hart.run.stepping = false;
                Gate::Stop(Outcome::Fault(f))
            }
        }
    }
}
