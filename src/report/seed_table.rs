//! `compare`'s `[seed_table]` section: the scenario's rows in a seed's own
//! form, per core, in the two units seed 002 uses: usec/op (ns per
//! iteration / 1000; "-ve is improvement") and ops/sec (10^9 / ns; "+ve is
//! improvement"), each with change % = (after − before) / before × 100.
//!
//! Every figure is rounded as printed (usec/op to 6 places, ops/sec to a
//! whole number) and the change is computed from the printed figures, so a
//! reader can redo it from the table; JSON carries the same values. (Seed
//! 002's own change % follow from no formula of its printed means: e.g.
//! basic's (0.120872 − 0.123997) / 0.123997 is −2.52%, the mail says
//! −2.57; so the plain formula it is.)
//!
//! Beside each estimated row, on every core, stand the file's
//! `[[reference]]`s marked `comparable = false`: a reference row is a
//! before figure on the row's before variant and an after figure on its
//! after variant with the same `what` (on any core; the first such pair of
//! each `what`), labelled with it. A figure without its other half makes
//! no row. They come from
//! another architecture or setup: their change % reads against the
//! estimate's, their absolute figures never do, and they never enter the
//! estimated rows.

use std::fmt::Write;

use serde::Serialize;

use super::compare::Row;
use super::measured;
use crate::scenario::{Reference, Scenario, SeedRow, SeedTable};

/// One unit's figures of a row, as printed.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Figures {
    pub before: f64,
    pub after: f64,
    /// (after − before) / before × 100 of the two printed figures, to 2
    /// places.
    pub change_pct: f64,
}

/// One printed row: an estimate, or a reference beside it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TableRow {
    pub core: String,
    /// The `[[seed_table.row]]` name.
    pub row: String,
    /// "estimate" or "reference".
    pub kind: &'static str,
    pub before_variant: String,
    pub after_variant: String,
    /// The references' `what` and `source` (null for an estimate).
    pub what: Option<String>,
    pub source: Option<String>,
    pub usec_per_op: Figures,
    pub ops_per_sec: Figures,
}

/// The section as `compare --format json` gives it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SeedTableJson {
    pub title: String,
    pub row_heading: String,
    pub columns: [String; 2],
    /// How change % is computed.
    pub change: &'static str,
    pub rows: Vec<TableRow>,
}

const CHANGE: &str = "(after - before) / before * 100, of the printed figures";

fn round_to(x: f64, places: i32) -> f64 {
    let k = 10f64.powi(places);
    (x * k).round() / k
}

fn change(before: f64, after: f64) -> f64 {
    if before == 0.0 {
        return 0.0;
    }
    round_to(100.0 * (after - before) / before, 2)
}

/// Both units from two ns-per-iteration figures.
fn figures(before_ns: f64, after_ns: f64) -> (Figures, Figures) {
    let usec = |ns: f64| round_to(ns / 1000.0, 6);
    let ops = |ns: f64| if ns > 0.0 { (1e9 / ns).round() } else { 0.0 };
    let (ub, ua) = (usec(before_ns), usec(after_ns));
    let (ob, oa) = (ops(before_ns), ops(after_ns));
    (
        Figures {
            before: ub,
            after: ua,
            change_pct: change(ub, ua),
        },
        Figures {
            before: ob,
            after: oa,
            change_pct: change(ob, oa),
        },
    )
}

/// The not-comparable reference pairs of a row: (the before reference,
/// before ns, after ns), in file order of their before figure, one per
/// `what`. Such a figure belongs to no RISC-V core (its `[[reference]]`
/// names one all the same), so it stands beside the row on every core.
fn reference_pairs<'a>(s: &'a Scenario, row: &SeedRow) -> Vec<(&'a Reference, f64, f64)> {
    let eligible = |r: &&Reference| !r.comparable && !measured::is_given(r) && r.ns.is_some();
    let mut out: Vec<(&Reference, f64, f64)> = Vec::new();
    for b in s
        .references
        .iter()
        .filter(eligible)
        .filter(|r| r.variant == row.before)
    {
        if out.iter().any(|(x, ..)| x.what == b.what) {
            continue;
        }
        let after = s
            .references
            .iter()
            .filter(eligible)
            .find(|r| r.variant == row.after && r.what == b.what);
        if let (Some(a), Some(nb)) = (after, b.ns)
            && let Some(na) = a.ns
        {
            out.push((b, nb, na));
        }
    }
    out
}

/// Every printed row, per core in the order the rows came.
pub fn table_rows(s: &Scenario, t: &SeedTable, rows: &[Row]) -> Vec<TableRow> {
    let mut cores: Vec<&str> = Vec::new();
    for r in rows {
        if !cores.contains(&r.core.as_str()) {
            cores.push(&r.core);
        }
    }
    let mut out = Vec::new();
    for core in cores {
        let ns = |v: &str| {
            rows.iter()
                .find(|r| r.core == core && r.variant == v)
                .map(|r| r.ns_per_iteration)
        };
        for row in &t.rows {
            let (Some(b), Some(a)) = (ns(&row.before), ns(&row.after)) else {
                continue;
            };
            let make = |kind, what: Option<&Reference>, b: f64, a: f64| {
                let (usec_per_op, ops_per_sec) = figures(b, a);
                TableRow {
                    core: core.to_string(),
                    row: row.name.clone(),
                    kind,
                    before_variant: row.before.clone(),
                    after_variant: row.after.clone(),
                    what: what.map(|r| r.what.clone()),
                    source: what.map(|r| r.source.clone()),
                    usec_per_op,
                    ops_per_sec,
                }
            };
            out.push(make("estimate", None, b, a));
            for (r, rb, ra) in reference_pairs(s, row) {
                out.push(make("reference", Some(r), rb, ra));
            }
        }
    }
    out
}

/// The JSON section (None without `[seed_table]`).
pub fn json(s: &Scenario, rows: &[Row]) -> Option<SeedTableJson> {
    let t = s.seed_table.as_ref()?;
    Some(SeedTableJson {
        title: t.title.clone(),
        row_heading: t.row_heading.clone(),
        columns: t.columns.clone(),
        change: CHANGE,
        rows: table_rows(s, t, rows),
    })
}

/// "+2.48", "-0.90": the seed's sign always shown.
fn pct(x: f64) -> String {
    format!("{x:+.2}")
}

/// The section as text or Markdown, one pair of tables per core.
pub fn section(o: &mut String, s: &Scenario, rows: &[Row], md: bool) {
    let Some(t) = s.seed_table.as_ref() else {
        return;
    };
    let all = table_rows(s, t, rows);
    if all.is_empty() {
        return;
    }
    let note = "In the seed's form, estimated per iteration: usec/op = ns / 1000, ops/sec = 10^9 / ns, change % = (after - before) / before * 100 of the printed figures. Reference rows (comparable = false) are another architecture or setup: read their change %, never their absolute figures, against the estimates.";
    let _ = writeln!(o, "\n{note}");
    let mut cores: Vec<&str> = Vec::new();
    for r in &all {
        if !cores.contains(&r.core.as_str()) {
            cores.push(&r.core);
        }
    }
    type Unit = (&'static str, &'static str, fn(&TableRow) -> &Figures, usize);
    let units: [Unit; 2] = [
        ("usec/op", "-ve is improvement", |r| &r.usec_per_op, 6),
        ("ops/sec", "+ve is improvement", |r| &r.ops_per_sec, 0),
    ];
    for core in cores {
        let mine: Vec<&TableRow> = all.iter().filter(|r| r.core == core).collect();
        for (unit, sense, get, places) in units {
            let label = |r: &TableRow| match &r.what {
                None => r.row.clone(),
                Some(w) => format!("  {w}"),
            };
            let num = |x: f64| format!("{x:.places$}");
            let head = if t.title.is_empty() {
                format!("{core}: {unit} ({sense})")
            } else {
                format!("{core}: {} {unit} ({sense})", t.title)
            };
            let [cb, ca] = &t.columns;
            if md {
                let _ = writeln!(o, "\n**{head}**\n");
                let _ = writeln!(o, "| {} | {cb} | {ca} | change % |", t.row_heading);
                let _ = writeln!(o, "|---|---:|---:|---:|");
                for r in &mine {
                    let f = get(r);
                    let l = match &r.what {
                        None => r.row.clone(),
                        Some(w) => format!("↳ {w}"),
                    };
                    let _ = writeln!(
                        o,
                        "| {} | {} | {} | {} |",
                        l.replace('|', "\\|"),
                        num(f.before),
                        num(f.after),
                        pct(f.change_pct)
                    );
                }
            } else {
                let w0 = mine
                    .iter()
                    .map(|r| label(r).chars().count())
                    .chain([t.row_heading.chars().count()])
                    .max()
                    .unwrap_or(0);
                let wn = |h: &str, f: &dyn Fn(&Figures) -> f64| {
                    mine.iter()
                        .map(|r| num(f(get(r))).len())
                        .chain([h.chars().count()])
                        .max()
                        .unwrap_or(0)
                };
                let (wb, wa) = (wn(cb, &|f| f.before), wn(ca, &|f| f.after));
                let _ = writeln!(o, "\n{head}");
                let _ = writeln!(
                    o,
                    "  {:<w0$}  {cb:>wb$}  {ca:>wa$}  change %",
                    t.row_heading
                );
                for r in &mine {
                    let f = get(r);
                    let _ = writeln!(
                        o,
                        "  {:<w0$}  {:>wb$}  {:>wa$}  {:>8}",
                        label(r),
                        num(f.before),
                        num(f.after),
                        pct(f.change_pct)
                    );
                }
            }
        }
    }
    // Where each reference comes from, once.
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for r in &all {
        if let (Some(w), Some(src)) = (&r.what, &r.source)
            && !seen.contains(&(w.as_str(), src.as_str()))
        {
            seen.push((w, src));
        }
    }
    if !seen.is_empty() {
        let _ = writeln!(o);
    }
    for (w, src) in seen {
        let _ = writeln!(
            o,
            "{}reference \"{w}\": {src} (comparable = false)",
            if md { "- " } else { "" }
        );
    }
}
