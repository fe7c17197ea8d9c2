//! The statistics observer: instructions per phase, the measured window and
//! its iterations, trap counts, and the bounded event log.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::machine::{DecodedInsn, Observer, Program, Retire};
use crate::trace::{Event, EventKind, EventLog, Priv};

/// Fixed phases: user, firmware and "kernel" (S-mode code no phase names).
pub const USER: u8 = 0;
pub const FIRMWARE: u8 = 1;
pub const KERNEL: u8 = 2;

/// Which phase each address belongs to.
#[derive(Debug)]
pub struct PhaseMap {
    pub names: Vec<String>,
    /// (start, end, phase), sorted by start.
    ranges: Vec<(u64, u64, u8)>,
}

impl PhaseMap {
    /// Phases from the scenario: each named symbol's code (its ELF size, or up
    /// to the next symbol) belongs to the phase.
    pub fn new(program: &Program, phases: &[(String, Vec<String>)]) -> PhaseMap {
        let mut names: Vec<String> = ["user", "firmware", "kernel"].map(String::from).to_vec();
        let mut ranges = Vec::new();
        for (name, syms) in phases {
            let id = match names.iter().position(|n| n == name) {
                Some(i) => i,
                None => {
                    names.push(name.clone());
                    names.len() - 1
                }
            } as u8;
            for s in syms {
                let Some(sym) = program.symbol(s) else {
                    continue;
                };
                let end = if sym.size > 0 {
                    sym.addr + sym.size
                } else {
                    program
                        .symbols()
                        .iter()
                        .map(|o| o.addr)
                        .filter(|&a| a > sym.addr)
                        .min()
                        .unwrap_or(sym.addr + 4)
                };
                ranges.push((sym.addr, end, id));
            }
        }
        ranges.sort();
        PhaseMap { names, ranges }
    }

    pub fn phase_of(&self, pc: u64) -> Option<u8> {
        let i = self.ranges.partition_point(|r| r.0 <= pc);
        let r = self.ranges.get(i.checked_sub(1)?)?;
        (pc < r.1).then_some(r.2)
    }

    pub fn default_for(p: Priv) -> u8 {
        match p {
            Priv::U => USER,
            Priv::M => FIRMWARE,
            Priv::S => KERNEL,
        }
    }
}

/// Addresses whose execution marks the measured window.
#[derive(Debug, Default, Clone, Copy)]
pub struct Markers {
    pub start: Option<u64>,
    pub end: Option<u64>,
    pub iteration: Option<u64>,
}

const M_START: u8 = 1;
const M_END: u8 = 2;
const M_ITER: u8 = 4;

pub struct BlockInfo {
    /// Phase per instruction (`None`: decided by privilege).
    phase: Vec<Option<u8>>,
    /// Marker bits per instruction index, only where nonzero.
    marks: Vec<(usize, u8)>,
}

/// Counters, snapshotted at the start and end of the window.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counters {
    pub phase: Vec<u64>,
    pub traps: u64,
    pub events: BTreeMap<&'static str, u64>,
}

pub struct Stats {
    pub map: Rc<PhaseMap>,
    markers: Markers,
    pub now: Counters,
    pub window_start: Option<Counters>,
    pub window_end: Option<Counters>,
    pub iterations: u64,
    pub log: EventLog,
}

impl Stats {
    pub fn new(map: Rc<PhaseMap>, markers: Markers, log: EventLog) -> Stats {
        let n = map.names.len();
        Stats {
            map,
            markers,
            now: Counters {
                phase: vec![0; n],
                ..Counters::default()
            },
            window_start: None,
            window_end: None,
            iterations: 0,
            log,
        }
    }

    fn mark(&mut self, bits: u8) {
        if bits & M_START != 0 && self.window_start.is_none() {
            self.window_start = Some(self.now.clone());
        }
        if bits & M_ITER != 0 && self.window_start.is_some() && self.window_end.is_none() {
            self.iterations += 1;
        }
        if bits & M_END != 0 && self.window_start.is_some() && self.window_end.is_none() {
            self.window_end = Some(self.now.clone());
        }
    }

    /// Counters inside the window (or the whole run when it has none).
    pub fn window(&self) -> Counters {
        match (&self.window_start, &self.window_end) {
            (Some(a), Some(b)) => Counters {
                phase: b.phase.iter().zip(&a.phase).map(|(x, y)| x - y).collect(),
                traps: b.traps - a.traps,
                events: b
                    .events
                    .iter()
                    .map(|(k, v)| (*k, v - a.events.get(k).copied().unwrap_or(0)))
                    .collect(),
            },
            _ => self.now.clone(),
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
        BlockInfo {
            phase: insns.iter().map(|d| self.map.phase_of(d.pc)).collect(),
            marks,
        }
    }

    fn retired(&mut self, r: &Retire<'_, BlockInfo>) {
        let info = &r.block.data;
        let fallback = PhaseMap::default_for(r.priv_);
        let mut marks = info
            .marks
            .iter()
            .filter(|(i, _)| *i >= r.from && *i < r.to)
            .peekable();
        for i in r.from..r.to {
            while let Some((_, bits)) = marks.next_if(|(j, _)| *j == i) {
                self.mark(*bits);
            }
            let p = info.phase[i].unwrap_or(fallback);
            self.now.phase[p as usize] += 1;
        }
    }

    fn event(&mut self, at: u64, ev: &Event) {
        self.log.push(at, ev);
        let kind = ev.kind();
        if kind == EventKind::Retired {
            return;
        }
        *self.now.events.entry(kind.name()).or_default() += 1;
        if kind == EventKind::TrapEnter {
            self.now.traps += 1;
        }
    }
}
