//! `trapscope compare`: before/after per core, in the style of a kernel cover
//! letter, with the measured reference beside each estimate and the events
//! that make up the difference.

use std::fmt::Write;

use super::escape;

use serde::Serialize;

use super::bands;
use super::measured;
use super::pairs::{self, PairDelta};

mod difference;
mod figures;
mod paths;
mod row;
use crate::scenario::Scenario;
use crate::session::{Estimate, VariantRun};
use difference::difference_lines;
use figures::{gap_lines, pct, reference_cell};
pub use row::Row;

#[derive(Serialize)]
struct CompareJson<'a> {
    scenario: String,
    title: &'a str,
    patch: &'a str,
    rows: &'a [Row],
    /// after − before of each pair on each core.
    pairs: &'a [PairDelta],
    /// `[seed_table]`'s rows, when the scenario has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    seed_table: Option<super::seed_table::SeedTableJson>,
    /// Variants whose path (instructions per iteration) differs between
    /// cores: the guest's path depends on the model's clock.
    paths_differ: Vec<paths::PathDiffers>,
}

/// Rows from each core's runs.
pub fn rows(s: &Scenario, per_core: &[(String, Vec<VariantRun>)]) -> Vec<Row> {
    let mut out = Vec::new();
    for (core, runs) in per_core {
        for r in runs {
            let Some(e) = &r.estimate else { continue };
            out.push(Row {
                core: if core.is_empty() {
                    e.core.clone()
                } else {
                    core.clone()
                },
                variant: r.variant.clone(),
                cycles_per_iteration: e.cycles_per_iteration,
                ns_per_iteration: e.ns_per_iteration,
                instructions_per_iteration: r
                    .insns_per_iteration
                    .get("total")
                    .copied()
                    .unwrap_or(0.0),
                events: e.events.clone(),
                phases: e.phases.clone(),
                breakdown: e.breakdown.clone(),
                reference_ns: measured::lookup(s, core, &r.variant, false).and_then(|x| x.ns),
                given_ns: measured::lookup(s, core, &r.variant, true).and_then(|x| x.ns),
                given_cycles: measured::lookup(s, core, &r.variant, true).and_then(|x| x.cycles),
                unverified: e.unverified.clone(),
                band: e.band.clone(),
            });
        }
    }
    out
}

pub fn json(s: &Scenario, rows: &[Row], pairs: &[PairDelta]) -> String {
    let j = CompareJson {
        scenario: s.path.display().to_string(),
        title: &s.title,
        patch: &s.patch,
        rows,
        pairs,
        seed_table: super::seed_table::json(s, rows),
        paths_differ: paths::differing(rows),
    };
    // Figures to 9 decimal places: the estimates are sums over iterations
    // divided by their count, whose last binary digits are noise
    // (-11.333333333333343).
    let v = serde_json::to_value(&j).map(|mut v| {
        round_floats(&mut v);
        v
    });
    v.and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// Every non-integral number in `v` rounded to 9 decimal places.
pub fn round_floats(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Number(n) if n.is_f64() => {
            if let Some(x) = n.as_f64()
                && let Some(r) = serde_json::Number::from_f64((x * 1e9).round() / 1e9)
            {
                *n = r;
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(round_floats),
        serde_json::Value::Object(o) => o.values_mut().for_each(round_floats),
        _ => {}
    }
}

/// A Markdown table cell: `|` escaped, lines joined.
fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The table, one block per core, then the events behind each difference.
pub fn text(
    s: &Scenario,
    rows: &[Row],
    per_core: &[(String, Vec<VariantRun>)],
    md: bool,
) -> String {
    let mut o = String::new();
    let ds = pairs::all(s, per_core);
    let cells = |r: &Row| {
        let b = r.band.as_ref();
        (
            bands::cell(r.cycles_per_iteration, b.map(|b| &b.cycles), false),
            bands::cell(r.ns_per_iteration, b.map(|b| &b.ns), false),
        )
    };
    // The figure columns fit their widest cell (the 9 they had at least).
    let cw = rows
        .iter()
        .map(|r| cells(r).0.len())
        .max()
        .unwrap_or(0)
        .max(9);
    let nw = rows
        .iter()
        .map(|r| cells(r).1.len())
        .max()
        .unwrap_or(0)
        .max(9);
    let dw = if rows.iter().any(|r| r.band.is_some()) {
        34
    } else {
        20
    };
    // The variant column fits the longest name (at least the 10 it had).
    let vw = rows
        .iter()
        .map(|r| r.variant.len())
        .max()
        .unwrap_or(0)
        .max(10);
    if md {
        let _ = writeln!(o, "### {}\n\n{}\n", s.title, s.patch);
        let _ = writeln!(
            o,
            "Estimated per iteration of the measured loop. Measured figures come from hardware and are not inputs to the estimate.\n"
        );
        let _ = writeln!(
            o,
            "| core | variant | cycles | ns | instructions | difference | measured on hardware |"
        );
        let _ = writeln!(o, "|---|---|---:|---:|---:|---:|---|");
    } else {
        let _ = writeln!(o, "{}\n{}", s.title, s.patch);
        let _ = writeln!(
            o,
            "estimated {}; \"measured\" figures come from hardware and are not model inputs\n",
            if s.measure.is_some() {
                "per iteration of the measured loop"
            } else {
                "for the whole run (no measured loop)"
            }
        );
        let _ = writeln!(
            o,
            "{:<7} {:<vw$} {:>cw$} {:>nw$} {:>7}  {:<dw$} measured on hardware",
            "core", "variant", "cycles", "ns", "instr", "difference"
        );
    }
    for (core, _) in per_core {
        // An empty core name: the variants are the cores.
        let mine: Vec<&Row> = rows
            .iter()
            .filter(|r| core.is_empty() || &r.core == core)
            .collect();
        for r in &mine {
            // The difference from the variant's pair `before` (variants
            // that are cores form no pairs).
            let before = s
                .pair_of(&r.variant)
                .filter(|_| !core.is_empty())
                .and_then(|p| mine.iter().find(|b| b.variant == p.before));
            let diff = match before {
                Some(f) => {
                    let d = r.cycles_per_iteration - f.cycles_per_iteration;
                    let band = ds
                        .iter()
                        .find(|p| p.core == *core && p.before == f.variant && p.after == r.variant)
                        .and_then(|p| p.band.as_ref())
                        .map(|b| format!(" {:+.1}..{:+.1}", b.cycles.low, b.cycles.high))
                        .unwrap_or_default();
                    format!("{d:+.1} ({}){band}", pct(d, f.cycles_per_iteration))
                }
                None => String::new(),
            };
            let (cyc, ns) = cells(r);
            let refc = reference_cell(s, &r.core, &r.variant, before.map(|b| b.variant.as_str()));
            let core = &r.core;
            if md {
                let _ = writeln!(
                    o,
                    "| {core} | {} | {cyc} | {ns} | {:.0} | {diff} | {refc} |",
                    r.variant, r.instructions_per_iteration
                );
            } else {
                let _ = writeln!(
                    o,
                    "{core:<7} {:<vw$} {cyc:>cw$} {ns:>nw$} {:>7.0}  {diff:<dw$} {refc}",
                    r.variant, r.instructions_per_iteration
                );
            }
        }
    }
    if let Some(n) = bands::note(
        rows.iter()
            .filter_map(|r| r.band.as_ref())
            .map(|b| &b.cycles),
    ) {
        let _ = writeln!(o, "\n{n}");
    }
    o.push_str(&paths::lines(&paths::differing(rows), md));
    pair_table(&mut o, &ds, md);
    super::seed_table::section(&mut o, s, rows, md);
    for (core, runs) in per_core {
        // Variants that are cores are not a before/after pair: list each
        // core's unverified values, and no difference.
        if core.is_empty() {
            let mut seen = Vec::new();
            for e in runs.iter().filter_map(|r| r.estimate.as_ref()) {
                if !seen.contains(&e.core) && !e.unverified.is_empty() {
                    let _ = writeln!(
                        o,
                        "\n{}{}: unverified profile values: {}",
                        if md { "- " } else { "" },
                        e.core,
                        e.unverified.join(", ")
                    );
                }
                seen.push(e.core.clone());
            }
            continue;
        }
        let ests: Vec<(&VariantRun, &Estimate)> = runs
            .iter()
            .filter_map(|r| r.estimate.as_ref().map(|e| (r, e)))
            .collect();
        let find = |v: &str| ests.iter().find(|(r, _)| r.variant == v).copied();
        for p in &s.pairs {
            let (Some((r0, e0)), Some((r1, e1))) = (find(&p.before), find(&p.after)) else {
                continue;
            };
            let _ = writeln!(o);
            let head = format!(
                "{core}: what makes the difference, {} → {} (per iteration)",
                r0.variant, r1.variant
            );
            let rows = difference_lines(r0, e0, r1, e1);
            if md {
                let _ = writeln!(o, "**{head}**\n");
                let _ = writeln!(
                    o,
                    "| what | {} | {} | cycles |",
                    md_cell(&r0.variant),
                    md_cell(&r1.variant)
                );
                let _ = writeln!(o, "|---|---:|---:|---:|");
                for r in rows {
                    let c: Vec<String> = r.cells.iter().map(|c| md_cell(c)).collect();
                    let _ = writeln!(o, "| {} |", c.join(" | "));
                }
            } else {
                let _ = writeln!(o, "{head}");
                for r in rows {
                    let _ = writeln!(o, "  {}", r.text);
                }
            }
        }
        let _ = writeln!(o);
        for line in gap_lines(s, core, &ests) {
            let _ = writeln!(o, "{}{line}", if md { "- " } else { "" });
        }
        if let Some((_, e)) = ests.first()
            && !e.unverified.is_empty()
        {
            let _ = writeln!(
                o,
                "{}{core}: unverified profile values: {}",
                if md { "- " } else { "" },
                e.unverified.join(", ")
            );
        }
    }
    // Where the patch moved work: the first pair on the first core.
    if let Some((core, runs)) = per_core.iter().find(|(c, _)| !c.is_empty())
        && let Some(p) = s.pairs.first()
        && let Some(a) = runs.iter().find(|r| r.variant == p.before)
        && let Some(b) = runs.iter().find(|r| r.variant == p.after)
    {
        super::functions::compare_section(&mut o, core, a, b, md);
    }
    escape(&o).into_owned()
}

/// Each pair's difference, after − before per iteration, on every core,
/// with the measured difference when both variants were measured.
fn pair_table(o: &mut String, ds: &[PairDelta], md: bool) {
    if ds.is_empty() {
        return;
    }
    let measured = |d: &PairDelta| {
        d.measured_ns
            .map_or(String::new(), |m| format!("{m:+.2} ns"))
    };
    let num = |v: Option<f64>, b: Option<&crate::session::band::Band>| {
        v.map_or("-".to_string(), |v| bands::cell(v, b, true))
    };
    let cyc = |d: &PairDelta| num(d.cycles, d.band.as_ref().map(|b| &b.cycles));
    let nsc = |d: &PairDelta| num(d.ns, d.band.as_ref().map(|b| &b.ns));
    let cw = ds.iter().map(|d| cyc(d).len()).max().unwrap_or(0).max(9);
    let nw = ds.iter().map(|d| nsc(d).len()).max().unwrap_or(0).max(9);
    if md {
        let _ = writeln!(o, "\nPairs, after − before per iteration:\n");
        let _ = writeln!(
            o,
            "| core | pair | instructions | cycles | ns | measured on hardware | what it asks |"
        );
        let _ = writeln!(o, "|---|---|---:|---:|---:|---|---|");
    }
    // The pair column as wide as its longest name (22 at the least).
    let w = ds
        .iter()
        .map(|d| pairs::name(d).chars().count())
        .max()
        .unwrap_or(0)
        .max(22);
    if !md {
        let _ = writeln!(o, "\npairs, after − before per iteration");
        let _ = writeln!(
            o,
            "{:<7} {:<w$} {:>7} {:>cw$} {:>nw$}  {:<20} what it asks",
            "core", "pair", "instr", "cycles", "ns", "measured"
        );
    }
    for d in ds {
        let pair = pairs::name(d);
        if md {
            let _ = writeln!(
                o,
                "| {} | {pair} | {:+.1} | {} | {} | {} | {} |",
                d.core,
                d.instructions,
                cyc(d),
                nsc(d),
                measured(d),
                d.label
            );
        } else {
            let line = format!(
                "{:<7} {pair:<w$} {:>+7.1} {:>cw$} {:>nw$}  {:<20} {}",
                d.core,
                d.instructions,
                cyc(d),
                nsc(d),
                measured(d),
                d.label
            );
            let _ = writeln!(o, "{}", line.trim_end());
        }
    }
}
