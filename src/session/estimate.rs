//! A variant's cycle estimate: per iteration, by phase, by category, with
//! the source lines that cost most.

use std::collections::BTreeMap;

use serde::Serialize;

use super::source;
use super::stats::{Counters, Stats};

use crate::cost::Cat;

/// A variant's cycle estimate on one core, per iteration of the window.
#[derive(Clone, Debug, Serialize)]
pub struct Estimate {
    pub core: String,
    pub clock_ghz: f64,
    /// Modelled cycles of work per iteration: every phase but `idle`.
    pub cycles_per_iteration: f64,
    pub ns_per_iteration: f64,
    /// Modelled cycles per phase per iteration (`idle`: waiting, not in
    /// `cycles_per_iteration`).
    pub phases: BTreeMap<String, f64>,
    /// Events per iteration: ras_mispredicts, branch_mispredicts, traps, ...
    pub events: BTreeMap<String, f64>,
    /// Cycles per iteration by cost category.
    pub breakdown: BTreeMap<String, f64>,
    /// The cycles of one event of each category, where it has one unit.
    pub unit_cycles: BTreeMap<String, f64>,
    pub cycles_total: f64,
    /// Profile parameters marked unverified that the estimate depends on
    /// (`cost::depends`).
    pub unverified: Vec<String>,
    /// The source lines that cost most per iteration.
    pub hot_lines: Vec<HotLine>,
    /// How far the figure moves over its parameters' ends (with a tape:
    /// `RunOpts::bands`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<super::band::EstimateBand>,
}

#[derive(Clone, Debug, Serialize)]
pub struct HotLine {
    /// `file.S:line`, or `function+0xOFF` for code without DWARF lines
    pub loc: String,
    pub text: String,
    pub cycles_per_iteration: f64,
}

/// The estimate from a run's counters, when it had a core model.
pub(super) fn estimate(
    stats: &Stats,
    w: &Counters,
    iters: u64,
    per: impl Fn(u64) -> f64,
) -> Option<Estimate> {
    let names = &stats.map.names;
    stats.model.as_ref().map(|model| {
        let prof = &model.profile;
        let milli = crate::cost::MILLI as f64;
        let per_c = |v: u64| per(v) / milli;
        // Idle cycles (a wfi's wait, a spin skipped to the timer) are time
        // but not work: the per-iteration figure leaves them out, and the
        // `idle` phase and breakdown show them apart.
        let idle = w
            .cycles
            .get(super::stats::IDLE as usize)
            .copied()
            .unwrap_or(0);
        let cycles_pi = per_c(w.cycles.iter().sum::<u64>() - idle);
        let mut events: BTreeMap<String, f64> = Cat::ALL
            .iter()
            .filter(|c| !matches!(c, Cat::Issue | Cat::DataStalls | Cat::StructuralStalls))
            .map(|c| (c.key().to_string(), per(w.ledger.count(*c))))
            .collect();
        events.insert("user_ras_mispredicts".into(), per(w.user_ras_mispredicts));
        Estimate {
            core: prof.name.clone(),
            clock_ghz: prof.core.clock_ghz.value,
            cycles_per_iteration: cycles_pi,
            ns_per_iteration: cycles_pi / prof.core.clock_ghz.value,
            phases: names
                .iter()
                .zip(&w.cycles)
                .filter(|(_, v)| **v > 0)
                .map(|(n, v)| (n.clone(), per_c(*v)))
                .collect(),
            events,
            breakdown: Cat::ALL
                .iter()
                .map(|c| (c.key().to_string(), per_c(w.ledger.milli(*c))))
                .collect(),
            unit_cycles: Cat::ALL
                .iter()
                .filter(|c| model.cost.unit(**c) > 0)
                .map(|c| (c.key().to_string(), model.cost.unit(*c) as f64 / milli))
                .collect(),
            cycles_total: stats.now.cycles.iter().sum::<u64>() as f64 / milli,
            // Only those the window's events could bring into play.
            unverified: prof
                .unverified()
                .iter()
                .filter(|n| crate::cost::depends::depends_on(n, |c| w.ledger.count(c)))
                .map(|s| s.to_string())
                .collect(),
            hot_lines: hot_lines(stats, iters, 8),
            band: None,
        }
    })
}

/// The `n` source lines with the most cycles per iteration in the window.
fn hot_lines(stats: &Stats, iters: u64, n: usize) -> Vec<HotLine> {
    let lines = stats.window_lines();
    let mut idx: Vec<usize> = (0..lines.len()).filter(|&i| lines[i] > 0).collect();
    idx.sort_by_key(|&i| std::cmp::Reverse(lines[i]));
    let mut src = source::Sources::default();
    let p = &stats.program;
    idx.into_iter()
        .take(n)
        .filter_map(|i| {
            // Code without DWARF lines: function+offset and the instruction.
            if let Some(Some((pc, text))) = stats.line_pcs.get(i) {
                return Some(HotLine {
                    loc: p.describe(*pc),
                    text: text.clone(),
                    cycles_per_iteration: lines[i] as f64
                        / crate::cost::MILLI as f64
                        / iters.max(1) as f64,
                });
            }
            let loc = stats.line_locs.get(i).copied().flatten()?;
            Some(HotLine {
                loc: format!("{}:{}", p.files.get(loc.file as usize)?, loc.line),
                text: match src.line(p, loc) {
                    Some(t) => t.split_whitespace().collect::<Vec<_>>().join(" "),
                    None if source::Sources::stale(p, loc.file) => {
                        "(the file changed after this build: point kernel_src at the tree it was built from)".into()
                    }
                    None => String::new(),
                },
                cycles_per_iteration: lines[i] as f64
                    / crate::cost::MILLI as f64
                    / iters.max(1) as f64,
            })
        })
        .collect()
}
