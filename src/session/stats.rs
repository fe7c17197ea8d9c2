//! The statistics observer: instructions per phase, the measured window and
//! its iterations, trap counts, and the bounded event log.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::callstack::CallStack;
use super::clock;
use crate::cost::{At, BlockCost, Cat, CostModel, Ledger};
use crate::isa::Op;
use crate::machine::{DecodedInsn, Observer, Program, Retire};
use crate::trace::{Event, EventKind, EventLog, PredKind, Priv};

pub use super::clock::CoreModel;
use super::functions::Functions;
pub use super::phases::{FIRMWARE, KERNEL, Markers, PhaseMap, USER};

const M_START: u8 = 1;
const M_END: u8 = 2;
const M_ITER: u8 = 4;

pub struct BlockInfo {
    /// Phase per instruction (`None`: decided by privilege).
    phase: Vec<Option<u8>>,
    /// Marker bits per instruction index, only where nonzero.
    marks: Vec<(usize, u8)>,
    /// Dense source-line id per instruction (into `Stats::lines`).
    line: Vec<u32>,
    /// Function id per instruction (into `Stats::functions`).
    func: Vec<u32>,
    pub(super) cost: Option<BlockCost>,
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

pub struct Stats {
    pub map: Rc<PhaseMap>,
    pub program: Rc<Program>,
    pub model: Option<CoreModel>,
    markers: Markers,
    /// Cycles (milli) per source line, by dense id; `line_locs` names them.
    pub lines: Vec<u64>,
    pub line_locs: Vec<Option<crate::machine::SrcLoc>>,
    line_ids: std::collections::HashMap<Option<crate::machine::SrcLoc>, u32>,
    pub now: Counters,
    pub window_start: Option<Counters>,
    pub window_end: Option<Counters>,
    /// `lines` at the window's start and end.
    lines_start: Option<Vec<u64>>,
    lines_end: Option<Vec<u64>>,
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
}

impl Stats {
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
            iterations: 0,
            log,
            iteration_marks: Default::default(),
            iteration_hits: 0,
            executed: 0,
            last_priv: Priv::M,
            interrupts: BTreeMap::new(),
            stack,
            functions: Functions::default(),
        }
    }

    fn open_window(&mut self) {
        self.window_start = Some(self.now.clone());
        self.lines_start = Some(self.lines.clone());
        self.functions.open();
    }

    fn close_window(&mut self) {
        self.window_end = Some(self.now.clone());
        self.lines_end = Some(self.lines.clone());
        self.functions.close();
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
            self.iteration_marks
                .push_back((self.executed, self.now.cycles.iter().sum()));
            if self.window_start.is_some() && self.window_end.is_none() {
                self.iterations += 1;
            }
        }
        if bits & M_END != 0 && self.window_start.is_some() && self.window_end.is_none() {
            self.close_window();
        }
    }

    /// The phase of code at `pc` run at privilege `p` now: its own phase
    /// symbol, else the innermost frame's, else `p`'s default.
    pub fn phase_at(&self, pc: u64, p: Priv) -> u8 {
        self.map
            .phase_of(pc)
            .or(self.stack.phase())
            .unwrap_or(PhaseMap::default_for(p))
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

impl Observer for Stats {
    type BlockData = BlockInfo;

    fn build(&mut self, insns: &[DecodedInsn]) -> BlockInfo {
        let m = self.markers;
        let mut marks = Vec::new();
        for (i, d) in insns.iter().enumerate() {
            let mut b = 0;
            if m.start == Some(d.pc) {
                b |= M_START;
            }
            if m.end == Some(d.pc) {
                b |= M_END;
            }
            if m.iteration == Some(d.pc) {
                b |= M_ITER;
            }
            if b != 0 {
                marks.push((i, b));
            }
        }
        let line = insns
            .iter()
            .map(|d| {
                let loc = self.program.loc(d.pc);
                let next = self.line_locs.len() as u32;
                let id = *self.line_ids.entry(loc).or_insert(next);
                if id == next {
                    self.line_locs.push(loc);
                    self.lines.push(0);
                }
                id
            })
            .collect();
        BlockInfo {
            phase: insns.iter().map(|d| self.map.phase_of(d.pc)).collect(),
            marks,
            line,
            func: self.functions.ids(&self.program, insns),
            cost: self.model.as_ref().map(|m| m.cost.build(insns)),
        }
    }

    fn retired(&mut self, r: &Retire<'_, BlockInfo>) -> u32 {
        let info = r.data;
        self.last_priv = r.priv_;
        let fallback = PhaseMap::default_for(r.priv_);
        // Control transfers first: each learns where it went from the next
        // instruction, or from `next` for the last one.
        let mut misp: Vec<(usize, PredKind)> = Vec::new();
        let mut found = Vec::new();
        if let Some(m) = self.model.as_mut() {
            for i in r.from..r.to {
                let d = &r.insns[i];
                if !d.insn.is_some_and(|x| x.is_control()) {
                    continue;
                }
                let next = if i + 1 < r.to {
                    Some(r.insns[i + 1].pc)
                } else {
                    r.next
                };
                if let Some(mp) = next.and_then(|n| m.pred.resolve(d, n)) {
                    misp.push((i, mp.kind));
                    found.push(mp);
                }
            }
        }
        let mut marks = info
            .marks
            .iter()
            .filter(|(i, _)| *i >= r.from && *i < r.to)
            .peekable();
        let mut mp = misp.iter().peekable();
        for i in r.from..r.to {
            self.executed = r.at + (i - r.from) as u64;
            while let Some((_, bits)) = marks.next_if(|(j, _)| *j == i) {
                self.mark(*bits);
            }
            // The pc's own phase symbol, else the innermost frame's
            // (session::callstack), else the privilege default.
            let p = info.phase[i].or(self.stack.phase()).unwrap_or(fallback) as usize;
            self.now.phase[p] += 1;
            let func = info.func[i];
            self.functions.retire(func);
            let d = &r.insns[i];
            if d.insn.is_some_and(|x| matches!(x.op, Op::Jal | Op::Jalr)) {
                let next = if i + 1 < r.to {
                    Some(r.insns[i + 1].pc)
                } else {
                    r.next
                };
                // A jump that did not complete (it trapped) linked nothing.
                if let Some(n) = next {
                    let map = &self.map;
                    self.stack.transfer(d, n, &|pc| map.phase_of(pc));
                    self.now.mismatched_returns = self.stack.mismatched;
                }
            }
            let (Some(m), Some(t)) = (self.model.as_mut(), info.cost.as_ref()) else {
                continue;
            };
            let kind = mp.next_if(|(j, _)| *j == i).map(|(_, k)| *k);
            let completed = i + 1 < r.to || r.next.is_some();
            let now = &mut self.now;
            let line = &mut self.lines[info.line[i] as usize];
            let mut spent = 0;
            let at = At {
                i,
                prev_load: m.last_load,
                completed,
                misp: kind,
            };
            let waited =
                clock::charge_one(&m.cost, t, &r.insns[i], at, &mut m.vec_pending, |cat, v| {
                    now.cycles[p] += v;
                    now.ledger.add(cat, v);
                    *line += v;
                    spent += v;
                    if cat == Cat::RasMispredicts && p == USER as usize {
                        now.user_ras_mispredicts += 1;
                    }
                });
            if waited > 0 {
                now.cycles[p] += waited;
                now.ledger.add_cycles(Cat::VectorUnit, waited);
                *line += waited;
            }
            self.functions.charge(func, spent + waited);
            m.last_load = if completed {
                CostModel::load_rd(t, i)
            } else {
                0
            };
        }
        let produced = if found.is_empty() {
            0
        } else {
            1 << EventKind::Mispredict as u32
        };
        for mp in found {
            let ev = Event::Mispredict {
                what: mp.kind,
                pc: mp.pc,
                predicted: mp.predicted,
                actual: mp.actual,
            };
            self.event(r.at + (r.to - r.from) as u64, &ev);
        }
        produced
    }

    fn cycles(&self) -> Option<u64> {
        self.model
            .as_ref()
            .map(|_| self.now.cycles.iter().sum::<u64>() / crate::cost::MILLI)
    }

    /// The platform timer: modelled cycles at the core's clock, in ticks of
    /// its `timebase_hz`.
    fn time(&self) -> Option<u64> {
        self.time_ahead(0)
    }

    /// The same walk as `retired` over instructions that all complete and
    /// predict right (load-use stalls and status-write waits included), so
    /// the cost up to any instruction is what accounting will charge.
    fn costs_ahead(
        &self,
        info: &BlockInfo,
        insns: &[DecodedInsn],
        from: usize,
        out: &mut Vec<u64>,
    ) {
        if let Some(m) = self.model.as_ref() {
            clock::costs_ahead(m, info, insns, from, out);
        } else {
            out.clear();
        }
    }

    /// The platform timer after `milli` more cycles: modelled cycles at the
    /// core's clock, in ticks of its `timebase_hz`.
    fn time_ahead(&self, milli: u64) -> Option<u64> {
        let m = self.model.as_ref()?;
        Some(clock::ticks(
            &m.profile,
            self.now.cycles.iter().sum::<u64>() + milli,
        ))
    }

    /// Idle cycles up to the first milli-cycle at which the timer reads
    /// `target`, charged to the `wfi`'s phase and line.
    fn idle(&mut self, pc: u64, target: u64) -> bool {
        let Some(m) = self.model.as_mut() else {
            return false;
        };
        let sum: u64 = self.now.cycles.iter().sum();
        let need = clock::idle_milli(&m.profile, sum, target);
        m.vec_pending -= m.vec_pending.min(need);
        m.last_load = 0;
        let p = self.phase_at(pc, self.last_priv) as usize;
        self.now.cycles[p] += need;
        self.now.ledger.add(Cat::Idle, need);
        self.charge_pc(pc, need);
        if let Some(id) = self
            .program
            .loc(pc)
            .and_then(|l| self.line_ids.get(&Some(l)))
        {
            self.lines[*id as usize] += need;
        }
        true
    }

    fn event(&mut self, at: u64, ev: &Event) {
        self.log.push(at, ev);
        let kind = ev.kind();
        if kind == EventKind::Retired {
            return;
        }
        // A counted window's run ends right before the loop top after the
        // last timed iteration (machine::Machine::end_at): the window closes
        // there, before the end is counted.
        if kind == EventKind::Exit
            && let Some((_, timed)) = self.markers.count
            && self.window_start.is_some()
            && self.window_end.is_none()
            && self.iterations == timed
        {
            self.close_window();
        }
        *self.now.events.entry(kind.name()).or_default() += 1;
        if let Event::Vector { pc, .. } = ev {
            let p = self.phase_at(*pc, self.last_priv);
            self.now.vector[p as usize] += 1;
        }
        if let Event::Vector { pc, class, .. } = ev
            && let Some(m) = self.model.as_mut()
        {
            let cost = m.cost.vector_cost(class);
            let v = if m.profile.vector.scalar_waits.value {
                cost
            } else if matches!(
                class,
                crate::vector::VClass::Config | crate::vector::VClass::Scalar
            ) {
                // vsetvl* and moves to/from x registers wait for the unit.
                std::mem::take(&mut m.vec_pending) + cost
            } else {
                m.vec_pending += cost;
                0
            };
            let p = self.phase_at(*pc, self.last_priv) as usize;
            self.now.cycles[p] += v;
            self.now.ledger.add(Cat::VectorUnit, v);
            self.charge_pc(*pc, v);
            if let Some(id) = self
                .program
                .loc(*pc)
                .and_then(|l| self.line_ids.get(&Some(l)))
            {
                self.lines[*id as usize] += v;
            }
        }
        match ev {
            Event::TrapEnter {
                cause,
                from,
                to,
                epc,
                handler,
                ..
            } => self.stack.trap(*cause, *epc, *from, *to, *handler),
            Event::TrapReturn { .. } => self.stack.xret(),
            _ => {}
        }
        if let Event::TrapEnter { handler, to, .. } = ev {
            if let Event::TrapEnter { cause, .. } = ev
                && cause >> 63 == 1
            {
                let key = crate::machine::irq::key(cause & !(1 << 63));
                *self.interrupts.entry(key).or_default() += 1;
            }
            self.now.traps += 1;
            if let Some(m) = self.model.as_mut() {
                // The pipeline is flushed: no stall carries into the handler.
                m.last_load = 0;
                let v = m.cost.trap_entry();
                let p = self.phase_at(*handler, *to) as usize;
                self.now.cycles[p] += v;
                self.now.ledger.add(Cat::TrapEntries, v);
                self.charge_pc(*handler, v);
            }
        }
    }
}
