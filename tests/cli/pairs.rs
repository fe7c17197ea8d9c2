//! `[[pair]]` (before/after pairs) and `trapscope fidelity`: parsing and
//! its errors, the differences `compare`, `check` and the TUI print, and
//! fidelity's ratios, statuses and JSON.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{fails_one_line, scratch, trapscope_within, write};
use serde_json::Value;
use trapscope::scenario::{Pair, Scenario};

/// after - before in compare, check and expectations.
mod differences;
/// Fidelity's ratios, text, JSON and errors.
mod fidelity;
/// Parsing pairs and its errors.
mod parsing;

const LIMIT: Duration = Duration::from_secs(120);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A scenario on the minikernel with three variants and a measured loop
/// (lines 1-21), then `tail` from line 22. Line numbers in the error tests count from here.
fn minikernel_scenario(tail: &str) -> String {
    let elf = root().join("assets/guest/minikernel.elf");
    format!(
        "title = \"t\"\npatch = \"p\"\nelf = \"{}\"\ncores = [\"u74\"]\n\
         [knobs.iterations]\nsymbol = \"knob_iterations\"\ndefault = 20\n\
         [knobs.ras]\nsymbol = \"knob_ras_friendly_entry\"\ndefault = 0\n\
         [[variants]]\nname = \"a\"\n[[variants]]\nname = \"b\"\nknobs = {{ ras = 1 }}\n\
         [[variants]]\nname = \"c\"\n\
         [measure]\nstart = \"bench_timed_loop\"\nend = \"bench_timed_done\"\niteration = \"bench_timed_loop\"\n{tail}",
        elf.display()
    )
}

fn parse(src: &str) -> Result<Scenario, String> {
    Scenario::parse(&PathBuf::from("t.toml"), src).map_err(|e| e.to_string())
}

fn pair(before: &str, after: &str, label: &str, implicit: bool) -> Pair {
    Pair {
        before: before.into(),
        after: after.into(),
        label: label.into(),
        implicit,
    }
}

fn json_of(args: &[&str]) -> Value {
    let out = trapscope_within(args, LIMIT);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Equal up to JSON's decimal round trip (a few ulps).
/// Equal to compare's JSON precision (9 decimal places).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}
