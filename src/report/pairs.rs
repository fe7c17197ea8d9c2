//! The scenario's before/after pairs as differences (after − before) per
//! iteration, on one core: what `compare`, `check`, `fidelity` and the TUI's
//! cycles pane print for each pair.

use serde::Serialize;

use crate::scenario::{Pair, Scenario};
use crate::session::VariantRun;

/// after − before, per iteration of the measured loop.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PairDelta {
    /// The core both ran on ("" without a core model).
    pub core: String,
    pub before: String,
    pub after: String,
    pub label: String,
    /// No `[[pair]]` in the file: every variant against the first.
    pub implicit: bool,
    pub instructions: f64,
    /// Cycles and ns: null without a core model.
    pub cycles: Option<f64>,
    pub ns: Option<f64>,
    /// The measured difference, when both variants have a comparable
    /// measured ns figure on this core (never a model input).
    pub measured_ns: Option<f64>,
    /// The difference's bands: the same parameter values on both sides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<crate::session::EstimateBand>,
}

fn insns(r: &VariantRun) -> f64 {
    r.insns_per_iteration.get("total").copied().unwrap_or(0.0)
}

/// The difference of one pair, from the two runs on `core`.
pub fn delta(
    s: &Scenario,
    core: &str,
    p: &Pair,
    before: &VariantRun,
    after: &VariantRun,
) -> PairDelta {
    let both = before.estimate.as_ref().zip(after.estimate.as_ref());
    // Both figures from the scenario, else both given with --measured:
    // never one of each.
    let measured =
        |v: &str, given: bool| super::measured::lookup(s, core, v, given).and_then(|r| r.ns);
    PairDelta {
        core: core.to_string(),
        before: p.before.clone(),
        after: p.after.clone(),
        label: p.label.clone(),
        implicit: p.implicit,
        instructions: insns(after) - insns(before),
        cycles: both.map(|(b, a)| a.cycles_per_iteration - b.cycles_per_iteration),
        ns: both.map(|(b, a)| a.ns_per_iteration - b.ns_per_iteration),
        measured_ns: [false, true].into_iter().find_map(|g| {
            measured(&p.before, g)
                .zip(measured(&p.after, g))
                .map(|(b, a)| a - b)
        }),
        band: before
            .band_input
            .as_deref()
            .zip(after.band_input.as_deref())
            .and_then(|(b, a)| crate::session::band::of_work(&[(a, 1.0), (b, -1.0)])),
    }
}

/// Every pair whose two variants are among `runs` (the runs of one core).
pub fn deltas(s: &Scenario, core: &str, runs: &[VariantRun]) -> Vec<PairDelta> {
    let find = |v: &str| runs.iter().find(|r| r.variant == v);
    s.pairs
        .iter()
        .filter_map(|p| Some(delta(s, core, p, find(&p.before)?, find(&p.after)?)))
        .collect()
}

/// Every pair on every core of a `per_core` set of runs (variants that are
/// cores form no pairs).
pub fn all(s: &Scenario, per_core: &[(String, Vec<VariantRun>)]) -> Vec<PairDelta> {
    per_core
        .iter()
        .flat_map(|(c, runs)| deltas(s, c, runs))
        .collect()
}

/// "before → after".
pub fn name(d: &PairDelta) -> String {
    format!("{} → {}", d.before, d.after)
}

/// "-1 instructions, -9.5 cycles, -6.3 ns" (cycles and ns only with a model).
pub fn summary(d: &PairDelta) -> String {
    let mut out = format!("{:+.1} instructions", d.instructions);
    if let (Some(c), Some(n)) = (d.cycles, d.ns) {
        out.push_str(&format!(", {c:+.1} cycles, {n:+.1} ns"));
    }
    out
}
