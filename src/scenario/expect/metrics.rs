//! The metric names an expectation may read, checked when the scenario
//! loads: a variant's result (`session::VariantRun` as JSON) has a fixed set
//! of fields, and its tables are keyed by the scenario's own phases, results
//! and knobs, or by fixed names (the cost categories, the LR/SC counters,
//! the interrupt kinds). A typo such as `a.x-b.y` (one path, not a
//! subtraction) is refused at its `file:line:col` instead of when the run
//! is over. `events`, `events_per_iteration` and `functions_per_iteration`
//! are checked by the parser itself.

use crate::cost::Cat;

/// The scenario's own names that key a result's tables.
#[derive(Debug, Default, Clone)]
pub struct Metrics {
    /// Phase names, the fixed ones (user, firmware, kernel) included.
    pub phases: Vec<String>,
    /// `[results]` names.
    pub results: Vec<String>,
    /// Knob names.
    pub knobs: Vec<String>,
}

/// Fields that are one number.
const NUMBERS: [&str; 6] = [
    "exit_code",
    "instructions",
    "traps",
    "iterations",
    "window_closed",
    "traps_per_iteration",
];
/// Fields that hold text, not a number.
const TEXT: [&str; 6] = [
    "variant",
    "label",
    "outcome",
    "error",
    "uart",
    "result_names",
];
/// Checked by the parser (event kinds, function symbols).
const PARSED: [&str; 3] = ["events", "events_per_iteration", "functions_per_iteration"];
const CALL_STACK: [&str; 4] = [
    "max_depth",
    "mismatched_returns",
    "mismatched_returns_per_iteration",
    "dropped_frames",
];
/// `session::run_variant`'s LR/SC counters.
pub const LRSC: [&str; 7] = [
    "sc_success",
    "sc_fail",
    "max_retries",
    "max_fail_run",
    "sc_unreserved",
    "lr",
    "livelock",
];
/// `machine::irq::key`'s names.
const INTERRUPTS: [&str; 7] = [
    "s_software",
    "m_software",
    "s_timer",
    "m_timer",
    "s_external",
    "m_external",
    "other",
];
const ESTIMATE_NUMBERS: [&str; 4] = [
    "clock_ghz",
    "cycles_per_iteration",
    "ns_per_iteration",
    "cycles_total",
];
const ESTIMATE_TABLES: [&str; 4] = ["phases", "events", "breakdown", "unit_cycles"];

/// The first-level fields, for the error that names them.
fn fields() -> Vec<&'static str> {
    let mut v: Vec<&str> = NUMBERS.to_vec();
    v.extend([
        "phases",
        "insns_per_iteration",
        "vector_per_iteration",
        "call_stack",
        "estimate",
        "lrsc",
        "interrupts",
        "results",
        "knobs",
    ]);
    v.extend(PARSED);
    v
}

/// A path step that is wrong: its index in the path, and why.
pub type Wrong = (usize, String);

/// Checks a metric path (the steps after the variant) against what a
/// variant's result holds.
pub fn check(text: &str, path: &[String], m: &Metrics) -> Result<(), Wrong> {
    let first = path[0].as_str();
    let with_total = |v: &[String]| {
        let mut v = v.to_vec();
        v.push("total".into());
        v
    };
    let keys: Vec<String> = match first {
        f if NUMBERS.contains(&f) => return leaf(text, path, 1),
        f if PARSED.contains(&f) => return Ok(()),
        f if TEXT.contains(&f) => {
            return Err((0, format!("'{text}': '{f}' is text, not a number")));
        }
        "phases" => m.phases.clone(),
        "insns_per_iteration" | "vector_per_iteration" => with_total(&m.phases),
        "call_stack" => owned(&CALL_STACK),
        "lrsc" => owned(&LRSC),
        "interrupts" => owned(&INTERRUPTS),
        "results" => m.results.clone(),
        "knobs" => m.knobs.clone(),
        "estimate" => return estimate(text, path, m),
        f => {
            return Err((
                0,
                format!(
                    "'{text}': a run has no metric '{f}' (metrics: {}){}",
                    fields().join(", "),
                    hint(f)
                ),
            ));
        }
    };
    key_of(text, path, 0, &keys)?;
    leaf(text, path, 2)
}

/// `estimate.FIELD` or `estimate.TABLE.KEY`.
fn estimate(text: &str, path: &[String], m: &Metrics) -> Result<(), Wrong> {
    let Some(second) = path.get(1) else {
        return Err((
            0,
            format!(
                "'{text}': 'estimate' is a table: name one of its fields, e.g. estimate.cycles_per_iteration"
            ),
        ));
    };
    if ESTIMATE_NUMBERS.contains(&second.as_str()) {
        return leaf(text, path, 2);
    }
    let keys: Vec<String> = match second.as_str() {
        "phases" => m.phases.clone(),
        "events" | "breakdown" | "unit_cycles" => {
            let mut v: Vec<String> = Cat::ALL.iter().map(|c| c.key().to_string()).collect();
            if second == "events" {
                // The RAS mispredicts of user code, counted apart.
                v.push("user_ras_mispredicts".into());
            }
            v
        }
        "core" => {
            return Err((
                1,
                format!("'{text}': 'estimate.core' is text, not a number"),
            ));
        }
        s => {
            let mut all: Vec<&str> = ESTIMATE_NUMBERS.to_vec();
            all.extend(ESTIMATE_TABLES);
            return Err((
                1,
                format!(
                    "'{text}': an estimate has no '{s}' (it has: {}){}",
                    all.join(", "),
                    hint(s)
                ),
            ));
        }
    };
    key_of(text, path, 1, &keys)?;
    leaf(text, path, 3)
}

/// Checks that step `table + 1` is one of `keys`.
fn key_of(text: &str, path: &[String], table: usize, keys: &[String]) -> Result<(), Wrong> {
    let name = path[..=table].join(".");
    let Some(key) = path.get(table + 1) else {
        return Err((
            table,
            format!(
                "'{text}': '{name}' is a table: name one of its keys ({})",
                shown(keys)
            ),
        ));
    };
    if keys.contains(key) {
        return Ok(());
    }
    Err((
        table + 1,
        format!(
            "'{text}': '{name}' has no '{key}' (it has: {}){}",
            shown(keys),
            hint(key)
        ),
    ))
}

/// A number ends the path at `len` steps.
fn leaf(text: &str, path: &[String], len: usize) -> Result<(), Wrong> {
    match path.get(len) {
        None => Ok(()),
        Some(next) => Err((
            len,
            format!(
                "'{text}': '{}' is a number: it has no '{next}'",
                path[..len].join(".")
            ),
        )),
    }
}

fn owned(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn shown(keys: &[String]) -> String {
    if keys.is_empty() {
        "none in this scenario".into()
    } else {
        keys.join(", ")
    }
}

/// `a.x-b.y` is one path: say how to subtract.
fn hint(step: &str) -> &'static str {
    if step.contains('-') {
        "; to subtract, put spaces around the '-'"
    } else {
        ""
    }
}
