//! `trapscope check`: each scenario's expectations on every core it names,
//! as lines or (`--format md`) a Markdown table per scenario; exit 1 if any
//! fails.

use std::path::PathBuf;
use std::process::ExitCode;

use super::each::{expects_exit_code, expects_livelock, per_core, run_all};
use super::shared::load;
use crate::machine::MachineConfig;
use crate::report::{self, Format};
use crate::scenario::{Scenario, expect};
use crate::session::{RunOpts, VariantRun};

/// One line of `check`: as text, and as a Markdown table's row (result,
/// core, what, detail) with `--format md`.
fn check_line(md: bool, text: String, cells: [&str; 4]) {
    if md {
        let c: Vec<String> = cells
            .iter()
            .map(|c| c.replace('|', "\\|").replace('\n', " "))
            .collect();
        say!("| {} |", c.join(" | "));
    } else {
        say!("{text}");
    }
}

pub(super) fn check(
    paths: &[PathBuf],
    machine: MachineConfig,
    format: Format,
) -> anyhow::Result<ExitCode> {
    if format == Format::Json {
        anyhow::bail!(
            "check writes text or md; for the figures as JSON use 'trapscope run SCENARIO --format json'"
        );
    }
    let md = format == Format::Md;
    let opts = RunOpts {
        machine,
        history: crate::session::NO_HISTORY,
        ..RunOpts::default()
    };
    let paths: Vec<PathBuf> = if paths.is_empty() {
        let all = super::fidelity::shipped()?;
        all.iter().map(|p| crate::shown_path(p)).collect()
    } else {
        paths.to_vec()
    };
    let mut failures = 0;
    let mut total = 0;
    for p in &paths {
        let s = load(p)?;
        // Whether each expectation was evaluated on some core.
        let mut evaluated = vec![false; s.expect.len()];
        if md {
            say!(
                "\n### {}: {}\n\n| result | core | expectation | detail |\n|---|---|---|---|",
                p.display(),
                s.title
            );
        } else {
            say!("{}: {}", p.display(), s.title);
        }
        // Expectations hold on every core the scenario names (or once, with
        // no cycle model, when it names none).
        let runs: Vec<(String, Vec<VariantRun>)> = if s.cores.is_empty() {
            vec![(String::new(), run_all(&s, &[], &opts)?)]
        } else {
            per_core(&s, &[], &opts)?
        };
        for (core, vruns) in &runs {
            let values: Vec<(String, serde_json::Value)> = vruns
                .iter()
                .map(|r| {
                    (
                        r.variant.clone(),
                        serde_json::to_value(r).unwrap_or_default(),
                    )
                })
                .collect();
            let tag = if core.is_empty() {
                String::new()
            } else {
                format!("[{core}] ")
            };
            // A guest that exits non-zero fails the check, unless an
            // expectation names that variant's exit code (it is expected).
            for r in vruns {
                if let Some(c) = r.exit_code.filter(|c| *c != 0)
                    && !expects_exit_code(&s, &r.variant)
                {
                    total += 1;
                    failures += 1;
                    let why = super::shared::scenario_exit_text(&s, c);
                    check_line(
                        md,
                        format!("  FAIL  {tag}variant {}: {why}", r.variant),
                        ["FAIL", core, &format!("variant {}", r.variant), &why],
                    );
                }
                // A guest that never exits (a fault, a storm cut off, the
                // budget) fails too, unless an expectation names the
                // livelock it was written to show.
                if r.exit_code.is_none() && !expects_livelock(&s, &r.variant) {
                    total += 1;
                    failures += 1;
                    let why = format!(
                        "the guest did not exit: {}",
                        r.error.as_deref().unwrap_or(&r.outcome)
                    );
                    check_line(
                        md,
                        format!("  FAIL  {tag}variant {}: {why}", r.variant),
                        ["FAIL", core, &format!("variant {}", r.variant), &why],
                    );
                }
            }
            for (ei, e) in s.expect.iter().enumerate() {
                if e.core
                    .as_ref()
                    .is_some_and(|c| !core.is_empty() && c != core)
                {
                    continue;
                }
                // A variant with its own `core` runs only there: an
                // expectation about it holds on that core alone.
                if !core.is_empty()
                    && e.check
                        .variants()
                        .iter()
                        .any(|v| !vruns.iter().any(|r| r.variant == *v))
                {
                    continue;
                }
                evaluated[ei] = true;
                total += 1;
                let get = |o: &crate::scenario::Operand| -> Result<f64, String> {
                    match o {
                        crate::scenario::Operand::Number(n) => Ok(*n),
                        crate::scenario::Operand::Metric { variant, path } => values
                            .iter()
                            .find(|(v, _)| v == variant)
                            .ok_or_else(|| format!("variant {variant} did not run"))
                            .and_then(|(_, j)| {
                                expect::lookup_path(j, path).map_err(|e| e.to_string())
                            }),
                        crate::scenario::Operand::Pair {
                            before,
                            after,
                            path,
                        } => pair_metric(&s, core, vruns, before, after, path).ok_or_else(|| {
                            format!(
                                "pair {before} → {after} has no {} (did both finish?)",
                                path.join(".")
                            )
                        }),
                    }
                };
                let (text, cells) = match e.check.evaluate(&get) {
                    Ok(out) if out.holds => (
                        format!("ok    {tag}{} ({})", e.name, out.shown),
                        ["ok", e.name.as_str(), &out.shown].map(String::from),
                    ),
                    Ok(out) => {
                        failures += 1;
                        let why = format!("{} is false ({}) at {}", e.check, out.shown, e.loc);
                        (
                            format!("FAIL  {tag}{}: {why}", e.name),
                            ["FAIL", e.name.as_str(), &why].map(String::from),
                        )
                    }
                    Err(m) => {
                        failures += 1;
                        let why = format!(
                            "{} names a metric the run does not have ({m}), at {}",
                            e.check, e.loc
                        );
                        (
                            format!("FAIL  {tag}{}: {why}", e.name),
                            ["FAIL", e.name.as_str(), &why].map(String::from),
                        )
                    }
                };
                check_line(
                    md,
                    format!("  {text}"),
                    [&cells[0], core, &cells[1], &cells[2]],
                );
            }
            // Each pair's difference, from the runs that finished (a report,
            // not a check: it neither passes nor fails).
            let done: Vec<VariantRun> = vruns
                .iter()
                .filter(|r| r.exit_code.is_some())
                .cloned()
                .collect();
            for d in report::pairs::deltas(&s, core, &done) {
                let (name, sum) = (report::pairs::name(&d), report::pairs::summary(&d));
                check_line(
                    md,
                    format!("  pair  {tag}{name}: {sum} per iteration"),
                    ["pair", core, &name, &format!("{sum} per iteration")],
                );
            }
        }
        // An expectation no core could evaluate (its `core` is none the
        // scenario runs, or its variants never run on one core together)
        // fails rather than pass unseen.
        for (e, _) in s.expect.iter().zip(&evaluated).filter(|(_, done)| !**done) {
            total += 1;
            failures += 1;
            let why = format!(
                "no core runs all of {} (a variant's own `core` runs it there alone){}, at {}",
                e.check.variants().join(", "),
                e.core
                    .as_ref()
                    .map(|c| format!(" with core = \"{c}\""))
                    .unwrap_or_default(),
                e.loc
            );
            check_line(
                md,
                format!("  FAIL  {}: {why}", e.name),
                ["FAIL", "", e.name.as_str(), &why],
            );
        }
    }
    say!(
        "{}{} passed, {} failed",
        if md { "\n" } else { "" },
        total - failures,
        failures
    );
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `pair.BEFORE.AFTER.METRIC`: the pair's difference as `compare` reports
/// it (the declared pair's label, or none), from runs that finished.
fn pair_metric(
    s: &Scenario,
    core: &str,
    runs: &[VariantRun],
    before: &str,
    after: &str,
    path: &[String],
) -> Option<f64> {
    let find = |v: &str| {
        runs.iter()
            .find(|r| r.variant == v && r.exit_code.is_some())
    };
    let pair = crate::scenario::Pair {
        before: before.into(),
        after: after.into(),
        label: String::new(),
        implicit: false,
    };
    let d = report::pairs::delta(s, core, &pair, find(before)?, find(after)?);
    expect::lookup(&serde_json::to_value(d).ok()?, path)
}
