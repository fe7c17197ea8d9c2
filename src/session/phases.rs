//! Phases: which part of the path (user, entry, syscall, exit, ...) each
//! address belongs to, and the symbols that mark the measured window.

use crate::machine::Program;
use crate::trace::Priv;

/// Fixed phases: user, firmware, "kernel" (S-mode code no phase names),
/// and idle: the cycles a `wfi`, or a jump to itself skipped to the timer,
/// waits (machine/wfi.rs), which are time but not work, so that the
/// per-iteration figures can leave them out.
pub const USER: u8 = 0;
pub const FIRMWARE: u8 = 1;
pub const KERNEL: u8 = 2;
pub const IDLE: u8 = 3;
/// Their names, in that order.
pub const FIXED: [&str; 4] = ["user", "firmware", "kernel", "idle"];

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
        let mut names: Vec<String> = FIXED.map(String::from).to_vec();
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
    /// (warm-up, timed): the window is counted in iterations instead of
    /// start/end symbols (`Measure::count`).
    pub count: Option<(u64, u64)>,
}
