//! The TUI's state: the live machine of the current variant, snapshots the
//! panes draw from, and the interface's own state. Rendering only borrows it
//! (CONVENTIONS.md 3); `update` is the only place it changes.

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::cost::Profile;
use crate::machine::{Machine, Outcome, Program};
use crate::scenario::{Scenario, ScriptStep};
use crate::session::stats::Stats;
use crate::session::{self, RunOpts, VariantRun};
use crate::trace::{Event, Priv};

mod debug;
mod diff;
mod sources;
pub use debug::{DebugViews, WatchEntry};
pub use diff::{DiffKey, DiffView, diff_page};
pub use sources::SourceFiles;

/// The panes, by the names scripts use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pane {
    Source,
    Registers,
    Csrs,
    Privilege,
    Ras,
    Cycles,
    Events,
    Narration,
    Vector,
    Vs,
    Reservation,
    /// The FP register file, fcsr and sstatus.FS.
    Fp,
    PtRegs,
    Backtrace,
    Memory,
    Stack,
    /// The path diff (`D`), in the left column while open.
    Diff,
}

/// What the middle column's lower part shows (`v` cycles through).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lower {
    Ras,
    Vector,
    Reservation,
    Fp,
    /// The kernel-debugger views: the current trap frame's pt_regs, the
    /// backtrace, memory at `:x`'s address, the stack around sp.
    PtRegs,
    Backtrace,
    Memory,
    Stack,
}

impl Pane {
    pub const ALL: [Pane; 17] = [
        Pane::Source,
        Pane::Registers,
        Pane::Csrs,
        Pane::Privilege,
        Pane::Ras,
        Pane::Cycles,
        Pane::Events,
        Pane::Narration,
        Pane::Vector,
        Pane::Vs,
        Pane::Reservation,
        Pane::Fp,
        Pane::PtRegs,
        Pane::Backtrace,
        Pane::Memory,
        Pane::Stack,
        Pane::Diff,
    ];
    pub fn name(self) -> &'static str {
        crate::scenario::PANES[self as usize]
    }
    pub fn parse(s: &str) -> Option<Pane> {
        Pane::ALL.into_iter().find(|p| p.name() == s)
    }
}

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

/// A trap that has been entered and not yet returned from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrapFrame {
    pub cause: u64,
    pub from: Priv,
    pub to: Priv,
    pub epc: u64,
    pub handler: u64,
    pub at: u64,
    /// Its index in the event log.
    pub index: u64,
}

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
    /// Events of the log already folded into `traps`.
    cursor: u64,
    /// Whether a trap has been taken into S / into M since reset, as far as
    /// the log tells (`trap_history` false: events fell off it unseen).
    pub trapped_to: (bool, bool),
    pub trap_history: bool,
    pub outcome: Option<Outcome>,
}

/// Events kept for the TUI's log (retired blocks are not).
pub const LOG_CAP: usize = 200_000;

impl Live {
    pub fn new(s: &Scenario, variant: usize, opts: &RunOpts) -> Result<Live, String> {
        let m = session::build_machine(s, &s.variants[variant], opts)?;
        let regs = m.gprs();
        Ok(Live::from_machine(variant, m, regs))
    }

    /// Wraps a machine that may already have run (after stepping back);
    /// `regs` are the registers shown before, to mark what changed.
    pub fn from_machine(variant: usize, mut m: Machine<Stats>, regs: [u64; 32]) -> Live {
        let fp = m.fp_state();
        let mut l = Live {
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
            cursor: 0,
            trapped_to: (false, false),
            trap_history: true,
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
        let log = &self.m.observer().log;
        let mut traps = std::mem::take(&mut self.traps);
        if log.dropped() > self.cursor {
            self.trap_history = false;
        }
        for (_, e) in log.since(self.cursor) {
            match &e.event {
                Event::TrapEnter { to: Priv::S, .. } => self.trapped_to.0 = true,
                Event::TrapEnter { .. } => self.trapped_to.1 = true,
                _ => {}
            }
        }
        for (index, e) in log.since(self.cursor) {
            match &e.event {
                Event::TrapEnter {
                    cause,
                    from,
                    to,
                    epc,
                    handler,
                    ..
                } => traps.push(TrapFrame {
                    cause: *cause,
                    from: *from,
                    to: *to,
                    epc: *epc,
                    handler: *handler,
                    at: e.at,
                    index,
                }),
                Event::TrapReturn { target, .. } => {
                    if let Some(f) = traps.pop() {
                        self.last_return = Some((f, *target));
                    }
                }
                _ => {}
            }
        }
        self.traps = traps;
        self.cursor = log.total();
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

/// What the keyboard is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    Help,
    /// Typing a `:` command.
    Command(String),
    /// Typing a `/` search.
    Search(String),
}

/// A script being played (`--autoplay`).
#[derive(Clone, Debug, Default)]
pub struct Player {
    pub steps: Vec<ScriptStep>,
    /// The next step Space plays.
    pub next: usize,
    pub active: bool,
}

/// How long the last action and frame took, for the status line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    pub update_us: u64,
    pub render_us: u64,
    pub key_to_frame_us: u64,
    /// (update, draw, key to frame) of the last key whose frame is on
    /// screen: what the status line shows, all three of one key.
    pub shown: (u64, u64, u64),
}

pub struct AppState {
    pub scenario: Rc<Scenario>,
    pub core: Option<Rc<Profile>>,
    pub set: Vec<(String, u64)>,
    pub live: Live,
    /// Whole runs of each variant with the current core, for the cycles pane.
    pub summaries: Vec<Option<VariantRun>>,
    pub breakpoints: BTreeSet<u64>,
    pub focus: Pane,
    /// A pane a script step points at.
    pub highlight: Option<Pane>,
    /// Lines scrolled back in the events pane (0: follow the newest).
    pub events_scroll: usize,
    /// Lines the source view is moved from centring the pc.
    pub source_scroll: i64,
    pub disasm: bool,
    /// What the events pane shows (`f`).
    pub filter: crate::report::EventFilter,
    pub mode: Mode,
    /// A message for the status line, and whether it is an error.
    pub message: Option<(String, bool)>,
    /// The narration on screen (sticky: the last place that had one).
    pub narration: Option<String>,
    pub player: Player,
    /// Source files of the live variant's program, by DWARF file index.
    pub sources: Rc<SourceFiles>,
    /// Each variant's, once loaded (variants may be other builds: two
    /// kernels each have their own tree).
    pub source_cache: Vec<Option<Rc<SourceFiles>>>,
    pub quit: bool,
    pub timing: Timing,
    /// What the middle column's lower part shows.
    pub lower: Lower,
    /// Which of the compact layout's shared panes is in front (`w`).
    pub tab: usize,
    /// Help entries scrolled past (`?`, then Up/Down).
    pub help_scroll: usize,
    /// Probes placed from the command line (`:probe`).
    pub probes: Vec<u64>,
    /// How machines are built (`--mem-limit`, `--strict-segments`).
    pub machine: crate::machine::MachineConfig,
    /// The last `/` search and its match.
    pub search: crate::tui::search::Search,
    /// Watchpoints and the memory view's place (`state/debug.rs`).
    pub debug: DebugViews,
    /// The path diff view (`D`).
    pub diff: DiffView,
    /// Draws a long action's progress and says whether to go on (the
    /// terminal's; none headless).
    pub progress: Option<super::update::long::ProgressFn>,
    /// A lesson being recorded (`:record`).
    pub recorder: Option<super::record::Recorder>,
}

impl AppState {
    pub fn new(scenario: Rc<Scenario>, core: Option<Rc<Profile>>) -> Result<AppState, String> {
        AppState::with_config(scenario, core, crate::machine::MachineConfig::default())
    }

    /// As `new`, with the machine built as `machine` says (`--mem-limit`).
    pub fn with_config(
        scenario: Rc<Scenario>,
        core: Option<Rc<Profile>>,
        machine: crate::machine::MachineConfig,
    ) -> Result<AppState, String> {
        let core = core.or_else(|| scenario.cores.first().cloned());
        let opts = RunOpts {
            core: core.clone(),
            log_events: LOG_CAP,
            machine,
            ..RunOpts::default()
        };
        let live = Live::new(&scenario, 0, &opts)?;
        let sources = Rc::new(SourceFiles::new(live.program().clone()));
        let mut source_cache = vec![None; scenario.variants.len()];
        source_cache[0] = Some(sources.clone());
        let mut s = AppState {
            summaries: vec![None; scenario.variants.len()],
            player: Player {
                steps: scenario.script.clone(),
                ..Player::default()
            },
            scenario,
            core,
            set: Vec::new(),
            live,
            breakpoints: BTreeSet::new(),
            focus: Pane::Source,
            highlight: None,
            events_scroll: 0,
            source_scroll: 0,
            disasm: false,
            filter: crate::report::EventFilter::AllButRetired,
            mode: Mode::Normal,
            message: None,
            narration: None,
            sources,
            source_cache,
            quit: false,
            timing: Timing::default(),
            lower: Lower::Ras,
            tab: 0,
            help_scroll: 0,
            probes: Vec::new(),
            machine,
            search: Default::default(),
            debug: DebugViews::default(),
            diff: DiffView::default(),
            progress: None,
            recorder: None,
        };
        s.lower = s.default_lower();
        s.compute_summaries();
        s.update_narration();
        Ok(s)
    }

    pub fn opts(&self) -> RunOpts {
        RunOpts {
            core: self.core.clone(),
            set: self.set.clone(),
            log_events: LOG_CAP,
            probes: self.probes.clone(),
            machine: self.machine,
            ..RunOpts::default()
        }
    }

    /// The panes that can take the RAS's place, in `v` order.
    pub fn lowers(&self) -> Vec<Lower> {
        let mut v = vec![Lower::Ras];
        if self.live.m.vunit().is_some() {
            v.push(Lower::Vector);
        }
        v.push(Lower::Reservation);
        v.push(Lower::Fp);
        v.extend([Lower::PtRegs, Lower::Backtrace, Lower::Memory, Lower::Stack]);
        v
    }

    /// Atomics scenarios open on the reservation, vector ones on the vector
    /// panes, the rest on the RAS.
    fn default_lower(&self) -> Lower {
        let sc = &self.scenario;
        let atomics = !sc.probes.is_empty()
            || sc.lrsc.remote_store_every > 0
            || sc
                .cores
                .iter()
                .chain(sc.variants.iter().filter_map(|v| v.core.as_ref()))
                .any(|c| c.atomics.amo_traps.value);
        let fp_lesson = sc
            .script
            .iter()
            .any(|st| st.highlight.as_deref() == Some("fp"));
        if atomics {
            Lower::Reservation
        } else if self.live.m.vunit().is_some() {
            Lower::Vector
        } else if fp_lesson {
            Lower::Fp
        } else {
            Lower::Ras
        }
    }

    /// The lower part that shows `pane`, if `pane` is one of them and can
    /// be shown (a lesson step that highlights it brings it up).
    pub fn lower_showing(&self, pane: Pane) -> Option<Lower> {
        let l = match pane {
            Pane::Ras => Lower::Ras,
            Pane::Vector | Pane::Vs => Lower::Vector,
            Pane::Reservation => Lower::Reservation,
            Pane::Fp => Lower::Fp,
            Pane::PtRegs => Lower::PtRegs,
            Pane::Backtrace => Lower::Backtrace,
            Pane::Memory => Lower::Memory,
            Pane::Stack => Lower::Stack,
            _ => return None,
        };
        self.lowers().contains(&l).then_some(l)
    }

    pub fn variant_name(&self) -> &str {
        &self.scenario.variants[self.live.variant].name
    }

    /// Whole runs of every variant, for per-iteration figures and deltas.
    pub fn compute_summaries(&mut self) {
        let opts = RunOpts {
            log_events: 0,
            ..self.opts()
        };
        self.summaries = self
            .scenario
            .variants
            .iter()
            .map(|v| session::run_variant(&self.scenario, v, &opts).ok())
            .collect();
    }

    /// The narration of the function the pc is in, if the scenario has one.
    pub fn update_narration(&mut self) {
        let p = self.live.program();
        let pc = self.live.m.pc();
        let here = p.symbol_at(pc).map(|(s, _)| s.name.clone());
        if let Some(t) = here.and_then(|n| self.scenario.narration_for(&n).map(str::to_string)) {
            self.narration = Some(t);
        }
    }
}
