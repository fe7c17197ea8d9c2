//! The machine of the variant on screen and what the panes read from it
//! after each action: registers (and which changed), CSRs, the trap frames
//! entered and not yet returned from.

use crate::machine::{Machine, Outcome, Program};
use crate::scenario::Scenario;
use crate::session::stats::Stats;
use crate::session::{self, RunOpts, SessionError};
use std::rc::Rc;

/// CSRs as the guest sees them, read after each action.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CsrView {
    pub sstatus: u64,
    pub sepc: u64,
    pub scause: u64,
    pub stval: u64,
    pub stvec: u64,
    pub sscratch: u64,
    pub mstatus: u64,
    pub mepc: u64,
    pub mcause: u64,
    pub mtval: u64,
    pub medeleg: u64,
}

pub use crate::session::stats::traps::TrapFrame;

/// The machine of the variant on screen.
pub struct Live {
    pub variant: usize,
    pub m: Machine<Stats>,
    pub regs: [u64; 32],
    /// Registers the last action wrote (bit i = x_i).
    pub changed: u32,
    /// Vector registers the last action wrote (bit i = v_i).
    pub vchanged: u32,
    vregs: Vec<u8>,
    /// f0..f31, fcsr and FS, read after each action (`Machine::fp_state`).
    pub fp: crate::machine::fstate::FpState,
    /// What the last action wrote of it: bit i = f_i, bit 32 = fcsr.
    pub fchanged: u64,
    pub csrs: CsrView,
    /// Traps entered and not yet returned from, oldest first.
    pub traps: Vec<TrapFrame>,
    /// The last completed trap: its frame and how it returned.
    pub last_return: Option<(TrapFrame, u64)>,
    /// Whether a trap has been taken into S / into M since reset.
    pub trapped_to: (bool, bool),
    pub outcome: Option<Outcome>,
    /// The machine's checkpoints: stepping back, `:goto` and
    /// Tab restore the nearest one and re-execute the rest. None only if
    /// the first could not be taken (then going back rebuilds the machine).
    pub cps: Option<session::checkpoint::Checkpoints>,
}

/// Events kept for the TUI's log (retired blocks are not).
pub const LOG_CAP: usize = 200_000;

impl Live {
    pub fn new(s: &Scenario, variant: usize, opts: &RunOpts) -> Result<Live, SessionError> {
        let m = session::build_machine(s, &s.variants[variant], opts)?;
        let regs = m.gprs();
        Ok(Live::from_machine(variant, m, regs))
    }

    /// Wraps a machine that may already have run (after stepping back);
    /// `regs` are the registers shown before, to mark what changed.
    pub fn from_machine(variant: usize, mut m: Machine<Stats>, regs: [u64; 32]) -> Live {
        let cps = session::checkpoint::Checkpoints::for_machine(&mut m).ok();
        Live::with_checkpoints(variant, m, regs, cps)
    }

    /// As `from_machine`, with checkpoints taken of `m` before (from its
    /// power-on, so that going back reaches everywhere).
    pub fn with_checkpoints(
        variant: usize,
        mut m: Machine<Stats>,
        regs: [u64; 32],
        cps: Option<session::checkpoint::Checkpoints>,
    ) -> Live {
        let cps = cps.or_else(|| session::checkpoint::Checkpoints::for_machine(&mut m).ok());
        let fp = m.fp_state();
        let mut l = Live {
            cps,
            fp,
            fchanged: 0,
            variant,
            regs,
            vregs: m.vunit().map(|u| u.regs.clone()).unwrap_or_default(),
            m,
            changed: 0,
            vchanged: 0,
            csrs: CsrView::default(),
            traps: Vec::new(),
            last_return: None,
            trapped_to: (false, false),
            outcome: None,
        };
        l.refresh(0);
        l
    }

    pub fn program(&self) -> &Rc<Program> {
        &self.m.program
    }

    /// Marks what differs from `before` as written (after stepping back,
    /// which rebuilds the machine, as `regs` does for the GPRs).
    pub fn mark_fp_since(&mut self, before: &crate::machine::fstate::FpState) {
        self.fchanged = (0..32)
            .filter(|&i| self.fp.f[i] != before.f[i])
            .fold(u64::from(self.fp.fcsr != before.fcsr) << 32, |acc, i| {
                acc | 1 << i
            });
    }

    /// Reads what the panes show after the machine moved.
    pub fn refresh(&mut self, changed_before: u32) {
        let now = self.m.gprs();
        let changed = (1..32)
            .filter(|&i| now[i] != self.regs[i])
            .fold(0u32, |acc, i| acc | 1 << i);
        self.changed = if changed == 0 {
            changed_before
        } else {
            changed
        };
        self.regs = now;
        if let Some(u) = self.m.vunit() {
            let n = u.vlen as usize / 8;
            self.vchanged = (0..32)
                .filter(|&i| self.vregs.get(i * n..(i + 1) * n) != Some(u.reg(i)))
                .fold(0u32, |acc, i| acc | 1 << i);
            self.vregs = u.regs.clone();
        }
        let before = std::mem::replace(&mut self.fp, self.m.fp_state());
        self.mark_fp_since(&before);
        let mut c = |n| self.m.csr(n).unwrap_or(0);
        self.csrs = CsrView {
            sstatus: c(0x100),
            sepc: c(0x141),
            scause: c(0x142),
            stval: c(0x143),
            stvec: c(0x105),
            sscratch: c(0x140),
            mstatus: c(0x300),
            mepc: c(0x341),
            mcause: c(0x342),
            mtval: c(0x343),
            medeleg: c(0x302),
        };
        // The observer folds the traps as they come (stats/traps.rs).
        let t = &self.m.observer().traps;
        self.traps.clone_from(&t.open);
        self.last_return.clone_from(&t.last_return);
        self.trapped_to = t.taken_to;
    }

    pub fn executed(&self) -> u64 {
        self.m.executed()
    }

    pub fn stats(&self) -> &Stats {
        self.m.observer()
    }

    /// The call stack the live machine's observer keeps (innermost first
    /// through `frames`), which the Privilege & traps pane shows.
    pub fn call_stack(&self) -> &crate::session::callstack::CallStack {
        &self.m.observer().stack
    }
}
