//! An expectation's metric names are checked when the scenario loads: a
//! typo (`a.x-b.y`, one path where a subtraction was meant) was only found
//! when the run was over. And every number a run's JSON holds can still be
//! named (the check follows the result's fields, so it must not drift).

use crate::common;

use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use trapscope::scenario::Scenario;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A shipped scenario's text, its guest paths made absolute, with `extra`
/// appended, written as a scenario of its own: its path and text.
fn with(name: &str, scenario: &str, extra: &str) -> (String, String) {
    let text = std::fs::read_to_string(root().join("scenarios").join(scenario)).unwrap();
    let guest = root().join("assets/guest");
    let text = text.replace("\"../assets/guest/", &format!("\"{}/", guest.display()));
    let text = format!("{text}\n{extra}");
    let dir = common::scratch(&format!("expect-names-{name}"));
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(&p, &text).unwrap();
    (p.display().to_string(), text)
}

/// The load error of `check` added to ras-trap-entry, and the
/// `line:col` of `at` (a piece of `check`) in the file.
fn refused(name: &str, check: &str, at: &str) -> (String, String) {
    let (p, text) = with(
        name,
        "ras-trap-entry.toml",
        &format!("[[expect]]\nname = \"typo\"\ncheck = \"{check}\"\n"),
    );
    let e = Scenario::load(Path::new(&p))
        .err()
        .unwrap_or_else(|| panic!("{check} loads"))
        .to_string();
    let line_start = text.rfind("check = ").unwrap();
    let off = line_start + "check = \"".len() + check.find(at).unwrap();
    let before = &text[..off];
    let line = before.matches('\n').count() + 1;
    let col = off - before.rfind('\n').unwrap() - 1 + 1;
    assert!(e.starts_with(&format!("{p}:{line}:{col}: ")), "{e}");
    (e, format!("{line}:{col}"))
}

#[test]
fn a_subtraction_without_spaces_is_refused_at_load_where_the_path_goes_wrong() {
    let (e, _) = refused(
        "minus",
        "after.insns_per_iteration.entry-before.insns_per_iteration.entry == -1",
        "entry-before",
    );
    assert!(e.contains("has no 'entry-before'"), "{e}");
    assert!(e.contains("put spaces around the '-'"), "{e}");
    // Spaced, it loads.
    let (p, _) = with(
        "minus-ok",
        "ras-trap-entry.toml",
        "[[expect]]\nname = \"ok\"\ncheck = \"after.insns_per_iteration.entry - before.insns_per_iteration.entry == -1\"\n",
    );
    Scenario::load(Path::new(&p)).unwrap();
}

#[test]
fn unknown_metrics_and_keys_are_refused_at_load() {
    for (name, check, at, want) in [
        (
            "field",
            "before.instructons > 0",
            "instructons",
            "a run has no metric 'instructons'",
        ),
        (
            "estimate",
            "before.estimate.cycles_per_iter > 0",
            "cycles_per_iter",
            "an estimate has no 'cycles_per_iter'",
        ),
        (
            "phase",
            "before.insns_per_iteration.entri > 0",
            "entri",
            "'insns_per_iteration' has no 'entri'",
        ),
        (
            "category",
            "before.estimate.breakdown.ras > 0",
            "ras >",
            "'estimate.breakdown' has no 'ras'",
        ),
        (
            "result",
            "before.results.verdict > 0",
            "verdict",
            "'results' has no 'verdict'",
        ),
        (
            "deep",
            "before.traps.user > 0",
            "user",
            "'traps' is a number",
        ),
        ("table", "before.lrsc > 0", "lrsc", "'lrsc' is a table"),
        (
            "text",
            "before.outcome == 0",
            "outcome",
            "'outcome' is text",
        ),
    ] {
        let (e, _) = refused(name, check, at);
        assert!(e.contains(want), "{name}: {e}");
    }
}

/// Every number in `v` with its path (named list entries by their name).
fn leaves(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Number(_) | Value::Bool(_) => out.push(path.clone()),
        Value::Object(m) => {
            for (k, x) in m {
                path.push(k.clone());
                leaves(x, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for x in items {
                let Some(name) = x.get("name").and_then(Value::as_str) else {
                    continue;
                };
                path.push(name.to_string());
                for (k, y) in x.as_object().unwrap() {
                    if k != "name" {
                        path.push(k.clone());
                        leaves(y, path, out);
                        path.pop();
                    }
                }
                path.pop();
            }
        }
        _ => {}
    }
}

fn step(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        s.to_string()
    } else {
        format!("\\\"{s}\\\"")
    }
}

/// Each numeric field of each variant's JSON result, named in an
/// expectation, loads: the names checked at load cover what a run holds
/// (these scenarios have interrupts, LR/SC, results and a core's estimate).
#[test]
fn every_number_a_run_reports_can_be_named() {
    for (scenario, core) in [
        ("ras-trap-entry.toml", "u74"),
        ("irq-trap-entry.toml", "u74"),
        ("zalrsc-atomics.toml", "u74"),
        ("fp-lazy-switch.toml", "x60"),
    ] {
        let out = common::trapscope_within(
            &[
                "run",
                &format!("scenarios/{scenario}"),
                "--core",
                core,
                "--format",
                "json",
            ],
            Duration::from_secs(300),
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut extra = String::new();
        let mut n = 0;
        for r in v["variants"].as_array().unwrap() {
            let name = r["variant"].as_str().unwrap();
            let mut paths = Vec::new();
            leaves(r, &mut Vec::new(), &mut paths);
            for p in paths {
                // Events with stamps are not metrics.
                if p[0] == "log" || p[0] == "log_dropped" {
                    continue;
                }
                // A band is not a metric: `check` compares the value, and
                // runs without bands.
                if p.len() > 1 && p[0] == "estimate" && p[1] == "band" {
                    continue;
                }
                let path: Vec<String> = p.iter().map(|s| step(s)).collect();
                let m = format!("{name}.{}", path.join("."));
                extra.push_str(&format!(
                    "[[expect]]\nname = \"{n}\"\ncheck = \"{m} == {m}\"\n"
                ));
                n += 1;
            }
        }
        assert!(n > 50, "{scenario}: {n} numbers");
        let (p, _) = with(&scenario.replace(".toml", ""), scenario, &extra);
        if let Err(e) = Scenario::load(Path::new(&p)) {
            panic!("{scenario}: {e}");
        }
    }
}
