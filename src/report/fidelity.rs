//! `trapscope fidelity`: every figure measured on hardware in the scenarios
//! beside its estimate (the same runs as `compare`: the core and variant
//! the reference names), the ratio estimate / measured, each pair's
//! measured difference against the estimated one, and the core profile's
//! unverified parameters the estimate rests on. A report, never a check.
//! This file builds the report from the runs; `fidelity/render.rs` prints it.

use serde::Serialize;

pub use super::measured::Measured;
use super::pairs;
use crate::scenario::{Reference, Scenario};
use crate::session::VariantRun;

mod render;
pub use render::{json, markdown, summary_line, text};

/// The band the project aims for: within ±25% of the measured figure.
pub const BAND: f64 = 0.25;

/// One measured figure beside its estimate.
#[derive(Clone, Debug, Serialize)]
pub struct Figure {
    pub scenario: String,
    pub core: String,
    pub variant: String,
    /// "ns" or "cycles" (per iteration of the measured loop).
    pub unit: &'static str,
    /// Null when held out.
    pub measured: Option<f64>,
    /// Null when the variant did not run to its end.
    pub estimate: Option<f64>,
    /// estimate / measured; null when held out, not comparable or not
    /// estimated.
    pub ratio: Option<f64>,
    /// "compared", "held out", "not comparable" or "not estimated".
    pub status: &'static str,
    pub what: String,
    pub source: String,
    /// The core profile's unverified parameters (`Profile::unverified`).
    pub unverified: Vec<String>,
    #[serde(flatten)]
    pub band: BandCells,
}

/// A figure's band beside its measured figure (`session::band`): all null
/// without a band.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BandCells {
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The measured figure lies inside the band (null without one of them).
    pub inside: Option<bool>,
    /// The parameter whose ends alone move the estimate most.
    pub moved_most_by: Option<String>,
    pub band_method: Option<crate::session::band::Method>,
    /// The band holds the run's path fixed (it read the clock or took the
    /// timer).
    pub path_fixed: bool,
}

impl BandCells {
    fn new(b: Option<&crate::session::band::Band>, measured: Option<f64>) -> BandCells {
        let Some(b) = b else {
            return BandCells::default();
        };
        // Inside to the precision reports print (0.05).
        let inside = measured.map(|m| b.low - 0.05 <= m && m <= b.high + 0.05);
        BandCells {
            low: Some(b.low),
            high: Some(b.high),
            inside,
            moved_most_by: b.moved_most_by.clone(),
            band_method: Some(b.method),
            path_fixed: b.path_fixed,
        }
    }
}

/// A pair whose two variants were both measured on the same core.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    pub scenario: String,
    pub core: String,
    pub before: String,
    pub after: String,
    pub label: String,
    pub unit: &'static str,
    /// after − before, measured.
    pub measured: f64,
    /// after − before, estimated; null when a variant did not finish.
    pub estimate: Option<f64>,
    /// estimate / measured; null when not estimated, not comparable or
    /// measured is 0.
    pub ratio: Option<f64>,
    /// false: both figures come from another architecture or setup.
    pub comparable: bool,
    /// Both figures were given with `--measured`.
    pub given: bool,
    pub unverified: Vec<String>,
    #[serde(flatten)]
    pub band: BandCells,
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// ±band, as a fraction (0.25).
    pub band: f64,
    /// Absolute figures with a ratio, and how many of them are in the band.
    pub absolute_compared: usize,
    pub absolute_within: usize,
    pub differences_compared: usize,
    pub differences_within: usize,
    /// Measured figures (absolute and differences) with a band, and how
    /// many lie inside it.
    pub banded: usize,
    pub inside: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct Fidelity {
    /// Every scenario read, as given (or as `scenarios/NAME.toml`).
    pub scenarios: Vec<String>,
    /// Scenarios with no `[[reference]]`.
    pub without_figures: Vec<String>,
    pub figures: Vec<Figure>,
    pub differences: Vec<Difference>,
    pub summary: Summary,
}

/// Within ±`BAND` of the measured figure.
pub fn within(ratio: f64) -> bool {
    (ratio - 1.0).abs() <= BAND + 1e-12
}

fn ratio(estimate: Option<f64>, measured: Option<f64>) -> Option<f64> {
    match (estimate, measured) {
        (Some(e), Some(m)) if m != 0.0 => Some(e / m),
        _ => None,
    }
}

/// The runs of one core (`per_core` as `compare` makes it, unfinished runs
/// left out).
fn core_runs<'a>(per_core: &'a [(String, Vec<VariantRun>)], core: &str) -> &'a [VariantRun] {
    per_core
        .iter()
        .find(|(c, _)| c == core)
        .map_or(&[], |(_, r)| r.as_slice())
}

/// Builds the report from each scenario's runs.
/// One scenario's input: the scenario, how the report names it, and its
/// runs per core (finished runs only; none when it has no reference).
pub type Item<'a> = (&'a Scenario, String, Vec<(String, Vec<VariantRun>)>);

pub fn build(items: &[Item<'_>]) -> Fidelity {
    let mut figures = Vec::new();
    let mut differences = Vec::new();
    let mut without = Vec::new();
    for (s, shown, per_core) in items {
        if s.references.is_empty() {
            without.push(shown.clone());
        }
        for r in &s.references {
            figures.extend(reference_figures(shown, per_core, r));
        }
        for (core, runs) in per_core.iter().filter(|(c, _)| !c.is_empty()) {
            let unverified = runs
                .iter()
                .find_map(|r| r.estimate.as_ref())
                .map(|e| e.unverified.clone())
                .unwrap_or_default();
            let find = |v: &str| runs.iter().find(|r| r.variant == v);
            for p in &s.pairs {
                // Made once a measured difference asks for it: its band
                // costs replays.
                let made = std::cell::OnceCell::new();
                let est = || {
                    made.get_or_init(|| {
                        find(&p.before)
                            .zip(find(&p.after))
                            .map(|(b, a)| pairs::delta(s, core, p, b, a))
                    })
                };
                // Comparable figures first, then those from another
                // architecture or setup (listed, no ratio); the scenario's,
                // then those given with --measured (never one of each).
                for (comparable, given) in [(true, false), (true, true), (false, false)] {
                    let measured = |v: &str, unit: &str| {
                        s.references
                            .iter()
                            .find(|r| {
                                r.comparable == comparable
                                    && r.core == *core
                                    && r.variant == v
                                    && super::measured::is_given(r) == given
                            })
                            .and_then(|r| match unit {
                                "ns" => r.ns,
                                _ => r.cycles,
                            })
                    };
                    for unit in ["ns", "cycles"] {
                        let (Some(m0), Some(m1)) =
                            (measured(&p.before, unit), measured(&p.after, unit))
                        else {
                            continue;
                        };
                        let estimate = est()
                            .as_ref()
                            .and_then(|d| if unit == "ns" { d.ns } else { d.cycles });
                        let m = m1 - m0;
                        let band = est()
                            .as_ref()
                            .and_then(|d| d.band.as_ref())
                            .map(|b| if unit == "ns" { &b.ns } else { &b.cycles });
                        differences.push(Difference {
                            scenario: shown.clone(),
                            core: core.clone(),
                            before: p.before.clone(),
                            after: p.after.clone(),
                            label: p.label.clone(),
                            unit,
                            measured: m,
                            estimate,
                            ratio: if comparable {
                                ratio(estimate, Some(m))
                            } else {
                                None
                            },
                            comparable,
                            given,
                            unverified: unverified.clone(),
                            band: BandCells::new(band, Some(m).filter(|_| comparable)),
                        });
                    }
                }
            }
        }
    }
    let count = |rs: Vec<Option<f64>>| {
        let rs: Vec<f64> = rs.into_iter().flatten().collect();
        (rs.len(), rs.iter().filter(|r| within(**r)).count())
    };
    let (ac, aw) = count(figures.iter().map(|f| f.ratio).collect());
    let (dc, dw) = count(differences.iter().map(|d| d.ratio).collect());
    let insides: Vec<bool> = figures
        .iter()
        .filter(|f| f.status == "compared")
        .filter_map(|f| f.band.inside)
        .chain(
            differences
                .iter()
                .filter(|d| d.comparable)
                .filter_map(|d| d.band.inside),
        )
        .collect();
    Fidelity {
        scenarios: items.iter().map(|(_, n, _)| n.clone()).collect(),
        without_figures: without,
        figures,
        differences,
        summary: Summary {
            band: BAND,
            absolute_compared: ac,
            absolute_within: aw,
            differences_compared: dc,
            differences_within: dw,
            banded: insides.len(),
            inside: insides.iter().filter(|i| **i).count(),
        },
    }
}

/// A reference's figures: one per unit it gives (one "held out" row when it
/// gives none).
fn reference_figures(
    shown: &str,
    per_core: &[(String, Vec<VariantRun>)],
    r: &Reference,
) -> Vec<Figure> {
    let run = core_runs(per_core, &r.core)
        .iter()
        .find(|v| v.variant == r.variant);
    let est = run.and_then(|v| v.estimate.as_ref());
    let input = run.and_then(|v| v.band_input.as_deref());
    // The band of the figure the reference names, in both units.
    let band = input.and_then(|i| match &r.per_event {
        Some((phase, n)) => crate::session::band::of_phase(&[(i, 1.0)], phase, *n),
        None => crate::session::band::of_work(&[(i, 1.0)]),
    });
    let mut units: Vec<(&'static str, Option<f64>)> = Vec::new();
    if r.ns.is_some() || r.cycles.is_none() {
        units.push(("ns", r.ns));
    }
    if r.cycles.is_some() {
        units.push(("cycles", r.cycles));
    }
    units
        .into_iter()
        .map(|(unit, measured)| {
            let estimate = est.map(|e| match &r.per_event {
                // Per event: the phase's cycles over the events it serves.
                Some((phase, n)) => {
                    let c = e.phases.get(phase).copied().unwrap_or(0.0) / n;
                    if unit == "ns" { c / e.clock_ghz } else { c }
                }
                None if unit == "ns" => e.ns_per_iteration,
                None => e.cycles_per_iteration,
            });
            let status = if estimate.is_none() {
                "not estimated"
            } else if measured.is_none() {
                "held out"
            } else if !r.comparable {
                "not comparable"
            } else {
                "compared"
            };
            Figure {
                scenario: shown.to_string(),
                core: r.core.clone(),
                variant: r.variant.clone(),
                unit,
                measured,
                estimate,
                ratio: if status == "compared" {
                    ratio(estimate, measured)
                } else {
                    None
                },
                status,
                what: r.what.clone(),
                source: r.source.clone(),
                unverified: est.map(|e| e.unverified.clone()).unwrap_or_default(),
                band: BandCells::new(
                    band.as_ref()
                        .map(|b| if unit == "ns" { &b.ns } else { &b.cycles }),
                    measured.filter(|_| r.comparable),
                ),
            }
        })
        .collect()
}
