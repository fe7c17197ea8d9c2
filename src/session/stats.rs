//! The statistics observer: instructions per phase, the measured window and
//! its iterations, trap counts, and the bounded event log.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::callstack::CallStack;
use crate::cost::Ledger;
use crate::cost::class::Static;
use crate::machine::Program;
use crate::trace::{EventLog, Priv};

pub use super::clock::CoreModel;
use super::functions::Functions;
pub use super::phases::{FIRMWARE, IDLE, KERNEL, Markers, PhaseMap, USER};

/// The time-travel history one machine holds unless told otherwise
/// (`Stats::set_history`): 128 MiB of checkpoints and a 32 MiB block
/// stream.
pub const MACHINE_HISTORY: usize = 160 << 20;

const M_START: u8 = 1;
const M_END: u8 = 2;
const M_ITER: u8 = 4;

pub struct BlockInfo {
    /// What accounting reads of each instruction, side by side: retiring a
    /// range touches one table rather than one per kind of figure.
    pub(super) slots: Vec<Slot>,
    /// Marker bits per instruction index, only where nonzero.
    marks: Vec<(usize, u8)>,
    /// A core model is attached: every slot has its `cost`.
    pub(super) costed: bool,
    /// Its id in the stream of retired blocks (`session::stream`).
    stream: u32,
    /// Its id on the tape, when one is kept (`session::tape`).
    tape: u32,
}

/// One instruction's entry in its block's table.
pub(super) struct Slot {
    /// Phase (`None`: decided by privilege).
    phase: Option<u8>,
    /// Dense source-line id (into `Stats::lines`).
    line: u32,
    /// Function id (into `Stats::functions`).
    func: u32,
    /// What the pipeline knows of it, with a core model.
    pub(super) cost: Option<Static>,
}

/// Counters, snapshotted at the start and end of the window.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counters {
    /// Instructions per phase.
    pub phase: Vec<u64>,
    /// Modelled cycles per phase, in thousandths.
    pub cycles: Vec<u64>,
    pub traps: u64,
    pub events: BTreeMap<&'static str, u64>,
    /// Cycles and counts by cost category.
    pub ledger: Ledger,
    /// RAS mispredicts of returns in user code (the cascade after a trap).
    pub user_ras_mispredicts: u64,
    /// Vector instructions run, per phase.
    pub vector: Vec<u64>,
    /// Returns that did not go back to the innermost call (`CallStack`).
    pub mismatched_returns: u64,
}

/// `Stats::iteration_place` before a window that a symbol opens.
pub const BEFORE_WINDOW: &str = "before the measured window";

pub struct Stats {
    pub map: Rc<PhaseMap>,
    pub program: Rc<Program>,
    pub model: Option<CoreModel>,
    markers: Markers,
    /// Cycles (milli) per source line, by dense id; `line_locs` names them.
    pub lines: Vec<u64>,
    pub line_locs: Vec<Option<crate::machine::SrcLoc>>,
    line_ids: std::collections::HashMap<Option<crate::machine::SrcLoc>, u32>,
    /// For an id of code with no line (no DWARF: a vmlinux built without
    /// it), the instruction's pc and disassembly, each its own "line".
    pub line_pcs: Vec<Option<(u64, String)>>,
    pc_line_ids: std::collections::HashMap<u64, u32>,
    pub now: Counters,
    pub window_start: Option<Counters>,
    pub window_end: Option<Counters>,
    /// `lines` at the window's start and end.
    lines_start: Option<Vec<u64>>,
    lines_end: Option<Vec<u64>>,
    /// `lines` at the newest iteration mark inside the window: with
    /// `lines_start`, the cycles of the iterations completed so far.
    lines_mark: Option<Vec<u64>>,
    pub iterations: u64,
    pub log: EventLog,
    /// Every execution of the iteration marker (warm-up included), with the
    /// instructions and cycles (milli) at that moment; the newest 4096.
    pub iteration_marks: std::collections::VecDeque<(u64, u64)>,
    /// How many times the iteration marker ran, in all.
    pub iteration_hits: u64,
    /// Instructions retired so far (for stamping marks).
    executed: u64,
    /// The privilege of the last retired range (events between ranges run there).
    last_priv: Priv,
    /// Interrupts taken over the whole run, by kind (`irq::key`).
    pub interrupts: BTreeMap<&'static str, u64>,
    /// The call stack, from the calls, returns, traps and xRETs seen.
    pub stack: CallStack,
    /// Instructions and cycles per function symbol.
    pub functions: Functions,
    /// The retired path of one iteration, recorded only when attached
    /// (`session::path`).
    pub path: Option<super::recorder::PathRecorder>,
    /// Every retired range, for reverse-continue (`session::stream`).
    pub stream: super::stream::BlockStream,
    /// Traps entered and not yet returned from (`traps.rs`).
    pub traps: traps::Traps,
    /// The time-travel history this machine may hold: its checkpoints and
    /// its block stream (`set_history`).
    history: usize,
    /// What the core model was fed, kept for a band (`session::band`);
    /// dropped when the machine goes back in time.
    pub tape: Option<super::tape::Tape>,
}

impl Stats {
    /// Holds at most `bytes` of time-travel history: a fifth for the block
    /// stream (dropped from the front now if past it), the rest for the
    /// checkpoints (`Checkpoints::for_machine`, `Checkpoints::set_cap`).
    pub fn set_history(&mut self, bytes: usize) {
        self.history = bytes;
        self.stream.set_cap(bytes / 5);
    }

    /// The history it may hold (`set_history`).
    pub fn history(&self) -> usize {
        self.history
    }

    /// The checkpoints' share of the history.
    pub fn checkpoint_cap(&self) -> usize {
        self.history - self.history / 5
    }

    /// The observer for a bare guest on `core`: no phases, no measured
    /// window, a one-event log (the bench's guests and the memory tests).
    pub fn on_core(program: &Rc<Program>, core: Rc<crate::cost::Profile>) -> Stats {
        Stats::new(
            Rc::new(PhaseMap::new(program, &[])),
            program.clone(),
            Some(CoreModel::new(core)),
            Markers::default(),
            EventLog::new(1, true),
        )
    }

    pub fn new(
        map: Rc<PhaseMap>,
        program: Rc<Program>,
        model: Option<CoreModel>,
        markers: Markers,
        log: EventLog,
    ) -> Stats {
        let n = map.names.len();
        let stack = CallStack::new(&program);
        Stats {
            map,
            program,
            model,
            markers,
            lines: Vec::new(),
            line_locs: Vec::new(),
            line_ids: Default::default(),
            line_pcs: Vec::new(),
            pc_line_ids: Default::default(),
            now: Counters {
                phase: vec![0; n],
                cycles: vec![0; n],
                vector: vec![0; n],
                ..Counters::default()
            },
            window_start: None,
            window_end: None,
            lines_start: None,
            lines_end: None,
            lines_mark: None,
            iterations: 0,
            log,
            iteration_marks: Default::default(),
            iteration_hits: 0,
            executed: 0,
            last_priv: Priv::M,
            interrupts: BTreeMap::new(),
            stack,
            functions: Functions::default(),
            path: None,
            stream: Default::default(),
            history: MACHINE_HISTORY,
            traps: Default::default(),
            tape: None,
        }
    }

    /// A mark on the tape, if one is kept.
    fn tape_mark(&mut self, m: super::tape::Mark) {
        if let Some(t) = self.tape.as_mut() {
            t.event(super::tape::Entry::Mark(m));
        }
    }

    fn open_window(&mut self) {
        self.tape_mark(super::tape::Mark::WindowStart);
        self.window_start = Some(self.now.clone());
        self.lines_start = Some(self.lines.clone());
        self.functions.open();
    }

    fn close_window(&mut self) {
        self.tape_mark(super::tape::Mark::WindowEnd);
        self.window_end = Some(self.now.clone());
        self.lines_end = Some(self.lines.clone());
        self.functions.close();
        self.path_cut();
    }

    /// Tells the path recorder, if any, where the iterations stand.
    fn path_cut(&mut self) {
        if let Some(p) = self.path.as_mut() {
            let open = self.window_start.is_some() && self.window_end.is_none();
            p.cut(open, self.iterations, self.iteration_hits);
        }
    }

    /// `milli` cycles charged at `pc` outside a block: to its function too.
    fn charge_pc(&mut self, pc: u64, milli: u64) {
        let id = self.functions.id_at(&self.program, pc);
        self.functions.charge(id, milli);
    }

    fn mark(&mut self, bits: u8) {
        if bits & M_START != 0 && self.window_start.is_none() {
            self.open_window();
        }
        if bits & M_ITER != 0 {
            self.tape_mark(super::tape::Mark::Iteration);
            self.iteration_hits += 1;
            // A counted window opens at the first timed iteration's start
            // (and closes where the run ends, after the last: `event`).
            if let Some((warmup, _)) = self.markers.count
                && self.iteration_hits == warmup + 1
            {
                self.open_window();
            }
            if self.iteration_marks.len() == 4096 {
                self.iteration_marks.pop_front();
            }
            // The cycles of work: idle time is not an iteration's.
            let work = self.now.cycles.iter().sum::<u64>() - self.now.cycles[IDLE as usize];
            self.iteration_marks.push_back((self.executed, work));
            if self.window_start.is_some() && self.window_end.is_none() {
                self.iterations += 1;
                match &mut self.lines_mark {
                    Some(m) => m.clone_from(&self.lines),
                    None => self.lines_mark = Some(self.lines.clone()),
                }
            }
        }
        if bits & M_END != 0 && self.window_start.is_some() && self.window_end.is_none() {
            self.close_window();
        }
        self.path_cut();
    }

    /// The phase of code at `pc` run at privilege `p` now: its own phase
    /// symbol, else the innermost frame's, else `p`'s default.
    pub fn phase_at(&self, pc: u64, p: Priv) -> u8 {
        self.map
            .phase_of(pc)
            .or(self.stack.phase())
            .unwrap_or(PhaseMap::default_for(p))
    }

    /// Where the run is in the measured loop, numbered as every pane and
    /// output numbers iterations: "iteration k" is the k-th timed one of
    /// the measured window (1-based; warm-up iterations are not counted,
    /// and are named as warm-up).
    pub fn iteration_place(&self) -> String {
        let open = self.window_start.is_some() && self.window_end.is_none();
        let timed = self.markers.count.map(|(_, t)| t);
        match (open, self.window_end.is_some()) {
            (true, _) if self.iterations == 0 => "in the window, before its first iteration".into(),
            (true, _) => match timed {
                Some(t) => format!("iteration {} of {t}", self.iterations),
                None => format!("iteration {}", self.iterations),
            },
            (false, true) => format!("after the loop ({} timed iterations)", self.iterations),
            // A window a symbol opens: the guest may be looping already (its
            // own warm-up), uncounted, so it is the window that is ahead.
            _ if self.markers.count.is_none() && self.markers.start.is_some() => {
                BEFORE_WINDOW.to_string()
            }
            _ if self.iteration_hits == 0 => "before the loop".to_string(),
            _ => match self.markers.count {
                Some((w, _)) => format!("warm-up {} of {w}", self.iteration_hits.min(w)),
                None => format!("warm-up {}", self.iteration_hits),
            },
        }
    }

    /// Cycles (milli) spent on a source line so far.
    pub fn line_cycles(&self, loc: crate::machine::SrcLoc) -> u64 {
        self.line_ids
            .get(&Some(loc))
            .map_or(0, |&i| self.lines[i as usize])
    }

    /// Cycles (milli) per source line inside the window (or the whole run).
    pub fn window_lines(&self) -> Vec<u64> {
        let end = self.lines_end.as_ref().unwrap_or(&self.lines);
        match &self.lines_start {
            Some(a) => end
                .iter()
                .enumerate()
                .map(|(i, v)| v - a.get(i).copied().unwrap_or(0))
                .collect(),
            None => self.lines.clone(),
        }
    }

    /// Cycles (milli) per source line over the measured window's completed
    /// iterations, and how many those are; `None` before one completes or
    /// without a window. An iteration mark counts the iteration it starts,
    /// so while the window is open the last one counted is still running:
    /// the span ends at that mark. Once the window is closed, or the run is
    /// over (`run_over`: the loop ended where `end_at` stops it), the span
    /// is the whole window, as the report's hot lines count it.
    pub fn completed_lines(&self, run_over: bool) -> Option<(Vec<u64>, u64)> {
        let start = self.lines_start.as_ref()?;
        let (end, n) = if self.window_end.is_some() || run_over {
            (
                self.lines_end.as_ref().unwrap_or(&self.lines),
                self.iterations,
            )
        } else {
            (self.lines_mark.as_ref()?, self.iterations.saturating_sub(1))
        };
        if n == 0 {
            return None;
        }
        let lines = end
            .iter()
            .enumerate()
            .map(|(i, v)| v - start.get(i).copied().unwrap_or(0))
            .collect();
        Some((lines, n))
    }

    /// The dense id of a source line, if any instruction of it ran.
    pub fn line_id(&self, loc: crate::machine::SrcLoc) -> Option<usize> {
        self.line_ids.get(&Some(loc)).map(|&i| i as usize)
    }

    /// Counters inside the window (or the whole run when it has none).
    pub fn window(&self) -> Counters {
        match (&self.window_start, &self.window_end) {
            (Some(a), Some(b)) => b.minus(a),
            // A window the run never closed lasts to the end of the run.
            (Some(a), None) => self.now.minus(a),
            _ => self.now.clone(),
        }
    }
}

impl Counters {
    /// What happened between `a` and `self`.
    fn minus(&self, a: &Counters) -> Counters {
        let sub = |x: &[u64], y: &[u64]| x.iter().zip(y).map(|(x, y)| x - y).collect();
        Counters {
            phase: sub(&self.phase, &a.phase),
            cycles: sub(&self.cycles, &a.cycles),
            ledger: self.ledger.minus(&a.ledger),
            user_ras_mispredicts: self.user_ras_mispredicts - a.user_ras_mispredicts,
            mismatched_returns: self.mismatched_returns - a.mismatched_returns,
            vector: sub(&self.vector, &a.vector),
            traps: self.traps - a.traps,
            events: self
                .events
                .iter()
                .map(|(k, v)| (*k, v - a.events.get(k).copied().unwrap_or(0)))
                .collect(),
        }
    }
}

mod observer;
mod rewind;
pub mod traps;
pub use rewind::StatsSaved;
