//! What a checkpoint holds of the statistics observer (`machine::checkpoint`).
//! Every field of `Stats` is named in `save`, so that a field added later is
//! a compile error there until someone says whether a checkpoint holds it.

use std::collections::{BTreeMap, VecDeque};

use super::{Counters, Stats};
use crate::cost::PipeState;
use crate::machine::checkpoint::Rewind;
use crate::predict::Predictors;
use crate::session::callstack::CallStack;
use crate::session::functions::FunctionsSaved;
use crate::session::recorder::PathRecorder;
use crate::trace::{EventLog, Priv};

/// Events a checkpoint keeps of the log: enough for the events pane and
/// Tab's count of trap events since the iteration mark; older ones read as
/// fallen off after a restore. Keeping the whole log would keep every event
/// of the run alive across the checkpoints.
const LOG_KEPT: usize = 2048;

/// The core model's run state: its profile and parameters stay.
#[derive(Clone)]
struct ModelSaved {
    pred: Predictors,
    pipe: PipeState,
    vec_pending: u64,
}

/// `Stats` at a checkpoint: its counters, not its tables of source lines
/// and functions, which decoded blocks index and which only grow.
pub struct StatsSaved {
    model: Option<ModelSaved>,
    lines: Vec<u64>,
    now: Counters,
    window_start: Option<Counters>,
    window_end: Option<Counters>,
    lines_start: Option<Vec<u64>>,
    lines_end: Option<Vec<u64>>,
    lines_mark: Option<Vec<u64>>,
    iterations: u64,
    log: EventLog,
    iteration_marks: VecDeque<(u64, u64)>,
    iteration_hits: u64,
    executed: u64,
    last_priv: Priv,
    interrupts: BTreeMap<&'static str, u64>,
    stack: CallStack,
    functions: FunctionsSaved,
    path: Option<PathRecorder>,
    stream: crate::session::stream::StreamRun,
    traps: super::traps::Traps,
}

/// `v` with zeros up to `n` entries: lines first met later count from zero.
fn grown(v: &[u64], n: usize) -> Vec<u64> {
    let mut v = v.to_vec();
    v.resize(n.max(v.len()), 0);
    v
}

impl StatsSaved {
    /// How many times the iteration marker had run at the checkpoint.
    pub fn iteration_hits(&self) -> u64 {
        self.iteration_hits
    }

    /// The event log it holds (trimmed to the newest `LOG_KEPT`).
    pub fn log(&self) -> &EventLog {
        &self.log
    }

    /// The block stream it holds.
    pub fn stream(&self) -> &crate::session::stream::StreamRun {
        &self.stream
    }
}

impl Rewind for Stats {
    type Saved = StatsSaved;

    fn save(&self) -> StatsSaved {
        let Stats {
            map: _,     // configuration
            program: _, // configuration
            model,
            markers: _, // configuration
            lines,
            line_locs: _,   // table of lines, indexed by decoded blocks
            line_ids: _,    // table of lines, indexed by decoded blocks
            line_pcs: _,    // table of lines, indexed by decoded blocks
            pc_line_ids: _, // table of lines, indexed by decoded blocks
            now,
            window_start,
            window_end,
            lines_start,
            lines_end,
            lines_mark,
            iterations,
            log,
            iteration_marks,
            iteration_hits,
            executed,
            last_priv,
            interrupts,
            stack,
            functions,
            path,
            stream,
            traps,
            history: _, // configuration
            tape: _,    // dropped on restore: the tape is one run's, forward only
        } = self;
        StatsSaved {
            model: model.as_ref().map(|m| ModelSaved {
                pred: m.pred.clone(),
                pipe: m.pipe.clone(),
                vec_pending: m.vec_pending,
            }),
            lines: lines.clone(),
            now: now.clone(),
            window_start: window_start.clone(),
            window_end: window_end.clone(),
            lines_start: lines_start.clone(),
            lines_end: lines_end.clone(),
            lines_mark: lines_mark.clone(),
            iterations: *iterations,
            log: log.trimmed(LOG_KEPT),
            iteration_marks: iteration_marks.clone(),
            iteration_hits: *iteration_hits,
            executed: *executed,
            last_priv: *last_priv,
            interrupts: interrupts.clone(),
            stack: stack.clone(),
            functions: functions.save(),
            path: path.clone(),
            stream: stream.run.trimmed(stream.kept_chunks()),
            traps: traps.clone(),
        }
    }

    fn restore(&mut self, s: &StatsSaved) {
        if let (Some(m), Some(saved)) = (self.model.as_mut(), s.model.as_ref()) {
            m.pred.clone_from(&saved.pred);
            m.pipe.clone_from(&saved.pipe);
            m.vec_pending = saved.vec_pending;
        }
        // Lines first met after the checkpoint count from zero there.
        let n = self.line_locs.len();
        self.lines = grown(&s.lines, n);
        self.lines_start = s.lines_start.as_ref().map(|v| grown(v, n));
        self.lines_end = s.lines_end.as_ref().map(|v| grown(v, n));
        self.lines_mark = s.lines_mark.as_ref().map(|v| grown(v, n));
        self.now.clone_from(&s.now);
        self.window_start.clone_from(&s.window_start);
        self.window_end.clone_from(&s.window_end);
        self.iterations = s.iterations;
        self.log.clone_from(&s.log);
        self.iteration_marks.clone_from(&s.iteration_marks);
        self.iteration_hits = s.iteration_hits;
        self.executed = s.executed;
        self.last_priv = s.last_priv;
        self.interrupts.clone_from(&s.interrupts);
        self.stack.clone_from(&s.stack);
        self.functions.restore(&s.functions);
        self.path.clone_from(&s.path);
        self.stream.run.clone_from(&s.stream);
        self.traps.clone_from(&s.traps);
        self.tape = None;
    }

    fn saved_bytes(s: &StatsSaved) -> usize {
        let v = |x: &Vec<u64>| x.len() * 8;
        let o = |x: &Option<Vec<u64>>| x.as_ref().map_or(0, v);
        std::mem::size_of::<StatsSaved>()
            + v(&s.lines)
            + o(&s.lines_start)
            + o(&s.lines_end)
            + o(&s.lines_mark)
            + s.iteration_marks.len() * 16
            + s.log.unshared_bytes()
            + s.functions.bytes()
            + s.model.as_ref().map_or(0, |m| m.pred.heap_bytes())
            + s.stack.heap_bytes()
            + s.stream.unshared_bytes()
    }
}
