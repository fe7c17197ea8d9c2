//! The TUI's state: the live machine of the current variant, snapshots the
//! panes draw from, and the interface's own state. Rendering only borrows it
//! (docs/decisions.md C3); `update` is the only place it changes.

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::cost::Profile;
use crate::scenario::{Scenario, ScriptStep};
use crate::session::{self, RunOpts, SessionError, VariantRun};

pub(in crate::tui) mod debug;
pub(in crate::tui) mod diff;
mod history;
mod idle;
mod live;
mod opening;
mod progress;
mod query;
mod recording;
mod sources;
mod view;
pub use debug::{DebugViews, WatchEntry};
pub use diff::{DiffKey, DiffView, diff_page};
pub use idle::Idle;
pub use live::{CsrView, LOG_CAP, Live, TrapFrame};
pub use opening::Rule;
pub use progress::{Progress, ProgressFn};
pub(in crate::tui) use query::LineCycle;
pub use query::{Hit, Search};
pub use recording::{Mark, Recorded, Recorder};
pub use sources::SourceFiles;
pub use view::{PAN_STEP, Pane, PaneViews};

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
    /// `r` left the machine on a variant the lesson does not begin on:
    /// Space begins it at its own start rather than play it here.
    pub elsewhere: bool,
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
    pub search: Search,
    /// Watchpoints and the memory view's place (`state/debug.rs`).
    pub debug: DebugViews,
    /// The path diff view (`D`).
    pub diff: DiffView,
    /// Draws a long action's progress and says whether to go on (the
    /// terminal's; none headless).
    pub progress: Option<ProgressFn>,
    /// A lesson being recorded (`:record`).
    pub recorder: Option<Recorder>,
    /// The machines of the variants not on screen, each with its
    /// checkpoints, by variant (Tab takes one out and parks the live one).
    pub parked: Vec<Option<Live>>,
    /// Where `r` goes (rule, variant, instruction count, in words), once
    /// found (`start.rs`).
    pub start_found: Option<(Rule, usize, u64, String)>,
    /// Work done while the TUI waits for keys (`update/idle.rs`).
    pub idle: Idle,
    /// The last Tab: (variant, instruction count) its round of Tabs began
    /// at, and where it landed, so that Tabs round the variants with
    /// nothing moved return there exactly (`update/switch.rs`).
    pub tab_back: Option<((usize, u64), (usize, u64))>,
    /// The narration on screen where the last change of variant left
    /// (variant, instruction count), for a Tab straight back there.
    pub narration_left: Option<((usize, u64), Option<String>)>,
    /// Each pane's scroll past what it has room for, and the last frame's
    /// screen (`state/view.rs`).
    pub views: PaneViews,
    /// The time-travel history all variants together may hold
    /// (`--history-mib`, `state/history.rs`).
    history: usize,
}

impl AppState {
    pub fn new(
        scenario: Rc<Scenario>,
        core: Option<Rc<Profile>>,
    ) -> Result<AppState, SessionError> {
        AppState::with_config(scenario, core, crate::machine::MachineConfig::default())
    }

    /// As `new`, with the machine built as `machine` says (`--mem-limit`).
    pub fn with_config(
        scenario: Rc<Scenario>,
        core: Option<Rc<Profile>>,
        machine: crate::machine::MachineConfig,
    ) -> Result<AppState, SessionError> {
        AppState::build(scenario, core, machine, false)
    }

    /// As the terminal opens it: the whole runs behind the cycles pane and
    /// the other variants' checkpoints are made while it waits for keys
    /// (`update/idle.rs`), so the first frame comes at once.
    pub fn open(
        scenario: Rc<Scenario>,
        core: Option<Rc<Profile>>,
        machine: crate::machine::MachineConfig,
    ) -> Result<AppState, SessionError> {
        AppState::build(scenario, core, machine, true)
    }

    fn build(
        scenario: Rc<Scenario>,
        core: Option<Rc<Profile>>,
        machine: crate::machine::MachineConfig,
        lazy: bool,
    ) -> Result<AppState, SessionError> {
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
            parked: Vec::new(),
            start_found: None,
            idle: Idle::new(lazy),
            tab_back: None,
            narration_left: None,
            views: PaneViews::default(),
            history: session::checkpoint::DEFAULT_HISTORY_MIB << 20,
        };
        s.parked = (0..s.scenario.variants.len()).map(|_| None).collect();
        s.balance_history();
        s.lower = s.default_lower();
        s.compute_summaries();
        s.update_narration();
        Ok(s)
    }

    /// What machines are built from changed (core, knobs, probes): the
    /// checkpoints and parked machines go, and the next move back rebuilds.
    pub fn machine_changed(&mut self) {
        self.live.cps = None;
        self.start_found = None;
        self.parked.iter_mut().for_each(|p| *p = None);
    }

    pub fn opts(&self) -> RunOpts {
        RunOpts {
            core: self.core.clone(),
            set: self.set.clone(),
            log_events: LOG_CAP,
            probes: self.probes.clone(),
            machine: self.machine,
            history: Some(self.new_share()),
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
        // AMOs trapped by the core the TUI opens on (its variant's, else
        // the session's), not by any core the scenario lists: generic-entry
        // lists the P8700 among five, and its only SCs are the trap
        // return's reservation-clearing ones.
        let first = sc.variants.first().and_then(|v| v.core.as_ref());
        let atomics = !sc.probes.is_empty()
            || sc.lrsc.remote_store_every > 0
            || first
                .or(self.core.as_ref())
                .is_some_and(|c| c.atomics.amo_traps.value);
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
        if self.idle.lazy {
            return self
                .idle
                .queue_summaries(self.scenario.variants.len(), &mut self.summaries);
        }
        let opts = RunOpts {
            log_events: 0,
            history: session::NO_HISTORY,
            bands: true,
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
            self.set_narration(t);
        }
    }

    /// A message for the status line.
    pub fn say(&mut self, msg: impl Into<String>) {
        self.message = Some((msg.into(), false));
    }

    /// An error for the status line (in red).
    pub fn error(&mut self, msg: impl Into<String>) {
        self.message = Some((msg.into(), true));
    }

    /// The narration on screen; new text is read from its top.
    pub fn set_narration(&mut self, t: String) {
        if self.narration.as_deref() != Some(t.as_str()) {
            self.views.reset(Pane::Narration);
        }
        self.narration = Some(t);
    }
}
