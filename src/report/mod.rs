//! Headless output of runs: text for people, Markdown for mails and reviews,
//! JSON for other tools.

pub mod bands;
pub mod compare;
pub mod console;
pub mod event_export;
mod events;
pub mod fidelity;
pub mod functions;
pub mod measured;
pub mod pairs;
pub mod pathdiff;
pub mod perfetto;
mod run_md;
pub mod seed_table;

pub use crate::escape::{escape, escape_control, escape_json, escape_line};

pub use events::{EventFilter, event_line, event_text, kind_name, sc_text, vs_name};

use std::fmt::Write;

use serde::Serialize;

use crate::scenario::Scenario;
use crate::session::VariantRun;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Md,
    Json,
}

/// `run`'s formats: the shared ones, and the exports only `run` writes
/// (`--events --format csv`, the Perfetto trace).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RunFormat {
    Text,
    Md,
    Json,
    /// The events as CSV (with `--events`).
    Csv,
    /// Chrome / Perfetto trace-event JSON.
    Perfetto,
}

#[derive(Serialize)]
struct RunJson<'a> {
    scenario: String,
    title: &'a str,
    patch: &'a str,
    variants: &'a [VariantRun],
}

pub fn json(s: &Scenario, runs: &[VariantRun]) -> String {
    let j = RunJson {
        scenario: s.path.display().to_string(),
        title: &s.title,
        patch: &s.patch,
        variants: runs,
    };
    serde_json::to_string_pretty(&j).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// Phase names in report order: user, then the kernel path in the order a
/// syscall runs it, then the rest; phases no variant ran are left out.
fn phase_order(s: &Scenario, runs: &[VariantRun]) -> Vec<String> {
    let mut names: Vec<String> = ["user", "entry", "syscall", "exit"]
        .map(String::from)
        .to_vec();
    names.extend(s.phases.iter().map(|(n, _)| n.clone()));
    names.extend(["kernel", "firmware"].map(String::from));
    let mut seen = std::collections::HashSet::new();
    names.retain(|n| seen.insert(n.clone()));
    names.retain(|n| {
        runs.iter().any(|r| {
            r.insns_per_iteration.get(n).is_some_and(|v| *v > 0.0) || r.phases.contains_key(n)
        })
    });
    names
}

fn fmt_num(v: f64) -> String {
    if (v - v.round()).abs() < 0.005 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.2}")
    }
}

fn fmt_delta(v: f64) -> String {
    let s = fmt_num(v.abs());
    if v > 0.004 {
        format!("+{s}")
    } else if v < -0.004 {
        format!("-{s}")
    } else {
        "0".into()
    }
}

pub fn text(s: &Scenario, runs: &[VariantRun]) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}", s.title);
    let _ = writeln!(o, "patch: {}", s.patch);
    let _ = writeln!(o, "scenario: {}", s.path.display());
    for (p, why) in &s.probe_rejections {
        let _ = writeln!(
            o,
            "probe {p}: the LR/SC checker rejects it (placed anyway): {why}"
        );
    }
    for r in runs {
        let _ = writeln!(o);
        let label = if r.label.is_empty() {
            String::new()
        } else {
            format!("  ({})", r.label)
        };
        let _ = writeln!(o, "variant {}{label}", r.variant);
        // How it ended, then how far it got; an error's own text comes
        // last, so its advice ("raise it with --budget") ends the line.
        let (end, why) = match (r.exit_code, &r.error) {
            (Some(_), _) if r.outcome == "loop-ended" => {
                ("the measured loop ended".to_string(), None)
            }
            (Some(c), _) => (format!("exited with code {c}"), None),
            (None, Some(e)) => ("did not finish".to_string(), Some(e)),
            (None, None) => (r.outcome.clone(), None),
        };
        let _ = writeln!(
            o,
            "  outcome       {end} after {} instructions, {} trap{}{}",
            r.instructions,
            r.traps,
            if r.traps == 1 { "" } else { "s" },
            why.map(|e| format!(": {e}")).unwrap_or_default()
        );
        let knobs: Vec<String> = r.knobs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(o, "  knobs         {}", knobs.join(" "));
        if r.iterations > 0 {
            let parts: Vec<String> = phase_order(s, runs)
                .iter()
                .filter_map(|p| {
                    r.insns_per_iteration
                        .get(p)
                        .map(|v| format!("{p} {}", fmt_num(*v)))
                })
                .collect();
            let total = r.insns_per_iteration.get("total").copied().unwrap_or(0.0);
            let window = if s.measure.is_none() {
                "1: no measured loop, figures are the whole run's".to_string()
            } else if !r.window_closed {
                format!(
                    "{} in the measured window, which the run never left (figures cover what ran)",
                    r.iterations
                )
            } else {
                format!("{} in the measured window", r.iterations)
            };
            let _ = writeln!(o, "  iterations    {window}");
            let _ = writeln!(
                o,
                "  per iteration {}  (total {} instructions)",
                parts.join(", "),
                fmt_num(total)
            );
            functions::text_block(&mut o, r);
            let _ = writeln!(o, "  traps/iter    {}", fmt_num(r.traps_per_iteration));
        }
        if let Some(e) = &r.estimate {
            let mut parts: Vec<String> = phase_order(s, runs)
                .iter()
                .filter(|p| p.as_str() != "idle")
                .filter_map(|p| e.phases.get(p).map(|v| format!("{p} {v:.1}")))
                .collect();
            // Waiting, apart: not in the figure before the colon.
            if let Some(v) = e.phases.get("idle") {
                parts.push(format!("idle {v:.1} (not counted)"));
            }
            let _ = writeln!(
                o,
                "  cycles/iter   {:.1} on {} ({:.1} ns at {} GHz): {}",
                e.cycles_per_iteration,
                e.core,
                e.ns_per_iteration,
                e.clock_ghz,
                parts.join(", ")
            );
            let moved: Vec<String> = crate::cost::Cat::ALL
                .iter()
                .filter_map(|c| {
                    let v = e.breakdown.get(c.key()).copied().unwrap_or(0.0);
                    (v > 0.0).then(|| match e.events.get(c.key()) {
                        Some(n) => format!("{} {} = {v:.1}", c.label(), fmt_num(*n)),
                        None => format!("{} {v:.1}", c.label()),
                    })
                })
                .collect();
            let _ = writeln!(o, "  breakdown     {}", moved.join("; "));
            if let Some(b) = &e.band {
                let _ = writeln!(o, "  band          {}", band_line(b));
            }
            if !e.unverified.is_empty() {
                let _ = writeln!(o, "  unverified    {}", e.unverified.join(", "));
            }
            let _ = writeln!(o, "  hot lines     (cycles per iteration)");
            for h in &e.hot_lines {
                let _ = writeln!(
                    o,
                    "  {:>12.1}  {:<34} {}",
                    h.cycles_per_iteration, h.loc, h.text
                );
            }
        }
        if r.lrsc.get("sc_success").copied().unwrap_or(0.0)
            + r.lrsc.get("sc_fail").copied().unwrap_or(0.0)
            > 0.0
        {
            let _ = writeln!(o, "  lr/sc         {}", lrsc_line(&r.lrsc));
        }
        for (k, v) in &r.results {
            let name = r
                .result_names
                .get(k)
                .map(|n| format!(" ({n})"))
                .unwrap_or_default();
            let _ = writeln!(o, "  result        {k} = {v}{name}");
        }
        let ev: Vec<String> = r.events.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(o, "  events        {}", ev.join(", "));
        if !r.interrupts.is_empty() {
            let irq: Vec<String> = r
                .interrupts
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            let _ = writeln!(o, "  interrupts    {}", irq.join(", "));
        }
        for line in console::console_lines(&console::escape_console(r.uart.as_bytes())) {
            let _ = writeln!(o, "{line}");
        }
    }
    if runs.len() >= 2 && runs.iter().all(|r| r.iterations > 0 && r.window_closed) {
        let _ = writeln!(o);
        let _ = writeln!(o, "instructions per iteration, by phase");
        // Each column as wide as its longest name and a space (at least 10),
        // so that long variant names stay apart.
        let w = runs
            .iter()
            .map(|r| r.variant.chars().count() + 1)
            .max()
            .unwrap_or(0)
            .max(10);
        let _ = write!(o, "  {:<10}", "phase");
        for r in runs {
            let _ = write!(o, "{:>w$}", r.variant);
        }
        let _ = writeln!(o, "{:>w$}", "delta");
        let mut phases = phase_order(s, runs);
        phases.push("total".into());
        for p in phases {
            let vals: Vec<f64> = runs
                .iter()
                .map(|r| r.insns_per_iteration.get(&p).copied().unwrap_or(0.0))
                .collect();
            if vals.iter().all(|v| *v == 0.0) {
                continue;
            }
            let _ = write!(o, "  {p:<10}");
            for v in &vals {
                let _ = write!(o, "{:>w$}", fmt_num(*v));
            }
            let d = vals[vals.len() - 1] - vals[0];
            let _ = writeln!(o, "{:>w$}", fmt_delta(d));
        }
    }
    escape(&o).into_owned()
}

/// The LR/SC summary: SCs that never had a reservation say so (no LR ran
/// at all; `sc_unreserved` in the JSON counts every failure that held
/// none), and the longest run of failures is of
/// any one SC, with the retries of an LR's loop beside it when they differ.
pub fn lrsc_line(l: &std::collections::BTreeMap<String, f64>) -> String {
    let g = |k: &str| l.get(k).copied().unwrap_or(0.0);
    let (ok, fail, run, retries) = (
        g("sc_success"),
        g("sc_fail"),
        g("max_fail_run"),
        g("max_retries"),
    );
    let mut o = format!("{ok} SCs succeeded, {fail} failed");
    if g("lr") == 0.0 && fail > 0.0 {
        o.push_str(", all with no reservation, as no LR ran (a trap return's sc, which only clears one, fails by design)");
    }
    let _ = write!(o, " (longest run of failures of one SC: {run}");
    if retries != run && g("lr") > 0.0 {
        let _ = write!(o, "; of one retrying its LR: {retries}");
    }
    o.push(')');
    if g("livelock") > 0.0 {
        o.push_str("; LIVELOCK");
    }
    o
}

pub fn markdown(s: &Scenario, runs: &[VariantRun]) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "### {}\n", s.title);
    let _ = writeln!(o, "Patch: {}\n", s.patch);
    run_md::outcomes(&mut o, runs);
    let _ = write!(o, "| phase (instructions/iteration) |");
    for r in runs {
        let _ = write!(o, " {} |", r.variant);
    }
    let _ = writeln!(o);
    let _ = write!(o, "|---|");
    for _ in runs {
        let _ = write!(o, "---:|");
    }
    let _ = writeln!(o);
    let mut phases = phase_order(s, runs);
    phases.push("total".into());
    for p in phases {
        let _ = write!(o, "| {p} |");
        for r in runs {
            let _ = write!(
                o,
                " {} |",
                fmt_num(r.insns_per_iteration.get(&p).copied().unwrap_or(0.0))
            );
        }
        let _ = writeln!(o);
    }
    let _ = write!(o, "| traps/iteration |");
    for r in runs {
        let _ = write!(o, " {} |", fmt_num(r.traps_per_iteration));
    }
    let _ = writeln!(o);
    run_md::cycles(&mut o, s, runs);
    functions::markdown_table(&mut o, runs);
    for r in runs {
        let l = &r.lrsc;
        if l.get("sc_success").copied().unwrap_or(0.0) + l.get("sc_fail").copied().unwrap_or(0.0)
            > 0.0
        {
            let _ = writeln!(o, "\n- LR/SC, {}: {}", r.variant, lrsc_line(l));
        }
    }
    escape(&o).into_owned()
}

/// "209.1..257.1 cycles, 139.4..171.4 ns over 11 values (each alone, then
/// all low and all high); moved most by csr_write_flush".
fn band_line(b: &crate::session::EstimateBand) -> String {
    let c = &b.cycles;
    let mut s = format!(
        "{:.1}..{:.1} cycles, {:.1}..{:.1} ns over {} value{}",
        c.low,
        c.high,
        b.ns.low,
        b.ns.high,
        b.ns.parameters.len(),
        if b.ns.parameters.len() == 1 { "" } else { "s" }
    );
    if c.method == crate::session::band::Method::OneAtATime {
        s.push_str(" (each alone, then all low and all high)");
    }
    if let Some(m) = &b.ns.moved_most_by {
        s.push_str(&format!("; moved most by {m}"));
    }
    if c.path_fixed {
        s.push_str("; the path held fixed (it read the clock or took the timer)");
    }
    s
}
