//! Instructions and modelled cycles per function symbol: what a reviewer
//! comparing two kernels reads to see which function a patch moved work in.
//!
//! A pc belongs to the symbol `Program::symbol_at` gives (a sized function
//! covering it first, else the nearest label below it); a pc under no symbol
//! counts under its 4 KiB page (`0x80001000`). Functions are keyed by name,
//! so two static functions of one name count as one. `Stats` resolves the
//! function of each instruction once per decoded block (`ids`), and charges
//! each instruction and each cycle charge to it, beside the phase.

use std::collections::HashMap;

use serde::Serialize;

use crate::isa::DecodedInsn;
use crate::program::Program;

/// One function's figures per iteration of the measured window.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FunctionFigure {
    pub name: String,
    pub instructions: f64,
    /// Modelled cycles, when a core model was attached.
    pub cycles: Option<f64>,
}

/// Counters per function, with their values where the window opened and
/// closed.
#[derive(Debug, Default)]
pub struct Functions {
    names: Vec<String>,
    by_name: HashMap<String, u32>,
    /// A pc's function, for charges made outside a block (trap entries,
    /// vector events, `wfi` idling).
    by_pc: HashMap<u64, u32>,
    insns: Vec<u64>,
    /// Modelled cycles in thousandths.
    cycles: Vec<u64>,
    /// Functions in the order they first ran (or were charged) since the
    /// window opened (or the run began), and whether each has.
    order: Vec<u32>,
    seen: Vec<bool>,
    start: Option<(Vec<u64>, Vec<u64>)>,
    end: Option<(Vec<u64>, Vec<u64>, usize)>,
}

/// The counters of `Functions` at a checkpoint (`session::checkpoint`):
/// the tables of names stay with the live run, whose decoded blocks hold
/// their ids.
#[derive(Clone, Debug)]
pub struct FunctionsSaved {
    insns: Vec<u64>,
    cycles: Vec<u64>,
    order: Vec<u32>,
    seen: Vec<bool>,
    start: Option<(Vec<u64>, Vec<u64>)>,
    end: Option<(Vec<u64>, Vec<u64>, usize)>,
}

impl FunctionsSaved {
    pub fn bytes(&self) -> usize {
        let v = |x: &Vec<u64>| x.len() * 8;
        v(&self.insns)
            + v(&self.cycles)
            + self.order.len() * 4
            + self.seen.len()
            + self.start.as_ref().map_or(0, |s| v(&s.0) + v(&s.1))
            + self.end.as_ref().map_or(0, |s| v(&s.0) + v(&s.1))
    }
}

/// The name `pc` counts under.
fn name_at(program: &Program, pc: u64) -> String {
    match program.symbol_at(pc) {
        Some((s, _)) => s.name.clone(),
        None => format!("{:#x}", pc & !0xfff),
    }
}

impl Functions {
    fn id_of(&mut self, name: String) -> u32 {
        if let Some(&id) = self.by_name.get(&name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.by_name.insert(name.clone(), id);
        self.names.push(name);
        self.insns.push(0);
        self.cycles.push(0);
        self.seen.push(false);
        id
    }

    /// The function of each instruction of a block (once, when it is decoded).
    pub fn ids(&mut self, program: &Program, insns: &[DecodedInsn]) -> Vec<u32> {
        insns.iter().map(|d| self.id_at(program, d.pc)).collect()
    }

    /// The function of `pc` (cached per pc).
    pub fn id_at(&mut self, program: &Program, pc: u64) -> u32 {
        if let Some(&id) = self.by_pc.get(&pc) {
            return id;
        }
        let id = self.id_of(name_at(program, pc));
        self.by_pc.insert(pc, id);
        id
    }

    fn touch(&mut self, id: u32) {
        let i = id as usize;
        if !self.seen[i] {
            self.seen[i] = true;
            self.order.push(id);
        }
    }

    pub fn save(&self) -> FunctionsSaved {
        FunctionsSaved {
            insns: self.insns.clone(),
            cycles: self.cycles.clone(),
            order: self.order.clone(),
            seen: self.seen.clone(),
            start: self.start.clone(),
            end: self.end.clone(),
        }
    }

    /// Back to `s`; functions first met since count from zero.
    pub fn restore(&mut self, s: &FunctionsSaved) {
        let n = self.names.len();
        let grow = |v: &mut Vec<u64>, from: &Vec<u64>| {
            v.clone_from(from);
            v.resize(n, 0);
        };
        grow(&mut self.insns, &s.insns);
        grow(&mut self.cycles, &s.cycles);
        self.order.clone_from(&s.order);
        self.seen.clone_from(&s.seen);
        self.seen.resize(n, false);
        self.start.clone_from(&s.start);
        self.end.clone_from(&s.end);
    }

    /// One instruction of function `id` retired.
    pub fn retire(&mut self, id: u32) {
        self.insns[id as usize] += 1;
        self.touch(id);
    }

    /// `milli` modelled milli-cycles charged to function `id`.
    pub fn charge(&mut self, id: u32, milli: u64) {
        self.cycles[id as usize] += milli;
        self.touch(id);
    }

    /// The measured window opens: figures and first-execution order from here.
    pub fn open(&mut self) {
        self.start = Some((self.insns.clone(), self.cycles.clone()));
        self.order.clear();
        self.seen.iter_mut().for_each(|s| *s = false);
    }

    /// The measured window closes.
    pub fn close(&mut self) {
        self.end = Some((self.insns.clone(), self.cycles.clone(), self.order.len()));
    }

    /// (name, instructions, milli-cycles) of each function that ran or was
    /// charged inside the window (the whole run when it has none), in the
    /// order each first did.
    pub fn window(&self) -> Vec<(&str, u64, u64)> {
        let (insns, cycles, n) = match &self.end {
            Some((i, c, n)) => (i, c, *n),
            None => (&self.insns, &self.cycles, self.order.len()),
        };
        let before = |v: Option<&Vec<u64>>, i: usize| v.and_then(|v| v.get(i)).copied();
        self.order[..n]
            .iter()
            .map(|&id| {
                let i = id as usize;
                let s = self.start.as_ref();
                (
                    self.names[i].as_str(),
                    insns[i] - before(s.map(|s| &s.0), i).unwrap_or(0),
                    cycles[i] - before(s.map(|s| &s.1), i).unwrap_or(0),
                )
            })
            .collect()
    }

    /// The window's figures per iteration (`iters` 0: all zero).
    pub fn per_iteration(&self, iters: u64, with_cycles: bool) -> Vec<FunctionFigure> {
        let per = |v: u64| {
            if iters > 0 {
                v as f64 / iters as f64
            } else {
                0.0
            }
        };
        self.window()
            .into_iter()
            .map(|(name, i, c)| FunctionFigure {
                name: name.to_string(),
                instructions: per(i),
                cycles: with_cycles.then(|| per(c) / crate::cost::MILLI as f64),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_counts_from_its_opening_in_first_execution_order() {
        let mut f = Functions::default();
        let (a, b, c) = (
            f.id_of("a".into()),
            f.id_of("b".into()),
            f.id_of("c".into()),
        );
        f.retire(a);
        f.retire(b);
        f.open();
        f.retire(b);
        f.charge(b, 1500);
        f.retire(a);
        f.retire(a);
        f.close();
        f.retire(c);
        assert_eq!(f.window(), vec![("b", 1, 1500), ("a", 2, 0)]);
        let pi = f.per_iteration(2, true);
        assert_eq!(pi[0].instructions, 0.5);
        assert_eq!(pi[0].cycles, Some(0.75));
    }

    #[test]
    fn without_a_window_the_whole_run_counts() {
        let mut f = Functions::default();
        let a = f.id_of("a".into());
        f.retire(a);
        f.retire(a);
        assert_eq!(f.window(), vec![("a", 2, 0)]);
        assert_eq!(f.per_iteration(1, false)[0].cycles, None);
    }
}
