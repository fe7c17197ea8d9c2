//! A variant's own `core` in a scenario that also has top-level `cores`:
//! that variant runs on its own core alone, in `compare`, `check` and
//! `run`, and a reference or expectation for it on that core is accepted;
//! the other variants run on every core in `cores`.
//!
//! The scenario is scenarios/ras-trap-entry.toml (cores u74 and c910) plus
//! `after_x60`: the `after` knobs on the X60. Oracles: the minikernel's
//! hand count (the comment block at the top of guest-asm/minikernel/
//! kernel.S: the RAS-friendly entry runs 16 + 63 + 58 + 61 = 198
//! instructions per getppid call), and `compare --core x60`, which runs
//! `after` itself on the X60: the same knobs on the same core must give the
//! same figures.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{scratch, trapscope_within, write};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(300);

fn scenario(tail: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(root.join("scenarios/ras-trap-entry.toml")).unwrap();
    let elf = root.join("assets/guest/minikernel.elf");
    let src = src.replace(
        "elf = \"../assets/guest/minikernel.elf\"",
        &format!("elf = \"{}\"", elf.display()),
    );
    assert!(src.contains("\ncores = [\"u74\", \"c910\"]\n"));
    let at = src.find("[[pair]]").unwrap();
    format!(
        "{}[[variants]]\nname = \"after_x60\"\nlabel = \"after, on the X60\"\n\
         knobs = {{ ras_friendly_entry = 1 }}\ncore = \"x60\"\n\n{}\n\
         [[reference]]\ncore = \"x60\"\nvariant = \"after_x60\"\nwhat = \"held out\"\nsource = \"none\"\n\n{tail}",
        &src[..at],
        &src[at..]
    )
}

fn json(args: &[&str]) -> Value {
    let out = trapscope_within(args, LIMIT);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_variant_with_its_own_core_runs_there_alone() {
    let dir = scratch("variant-core");
    let p = write(&dir, "r.toml", scenario("").as_bytes());
    let rows = json(&["compare", &p, "--format", "json"])["rows"].clone();
    let rows = rows.as_array().unwrap();
    let on = |v: &str| -> Vec<&Value> { rows.iter().filter(|r| r["variant"] == v).collect() };
    // Pinned: one row, on its own core, with the hand count.
    let pinned = on("after_x60");
    assert_eq!(pinned.len(), 1, "{rows:?}");
    assert_eq!(pinned[0]["core"], "x60");
    assert_eq!(pinned[0]["instructions_per_iteration"], 198.0);
    // The others: on every core in `cores`, and not on the X60.
    for v in ["before", "after"] {
        let cores: Vec<&Value> = on(v).iter().map(|r| &r["core"]).collect();
        assert_eq!(cores, ["u74", "c910"], "{v}");
    }
    // `after` run on the X60 by --core is the same machine and knobs.
    let x60 = json(&["compare", &p, "--core", "x60", "--format", "json"])["rows"].clone();
    let after = x60
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["variant"] == "after")
        .unwrap()
        .clone();
    for k in [
        "cycles_per_iteration",
        "ns_per_iteration",
        "instructions_per_iteration",
    ] {
        assert_eq!(pinned[0][k], after[k], "{k}");
    }
    // `run` without --core runs it on its own core too.
    let run = json(&["run", &p, "-v", "after_x60", "--format", "json"]);
    let est = &run["variants"][0]["estimate"];
    assert_eq!(est["core"], "x60", "{run}");
    assert_eq!(est["cycles_per_iteration"], after["cycles_per_iteration"]);
}

#[test]
fn check_holds_an_expectation_on_the_variant_s_own_core() {
    let tail = "[[expect]]\nname = \"on its core\"\ncore = \"x60\"\n\
                check = \"after_x60.insns_per_iteration.total == 198\"\n\
                [[expect]]\nname = \"no core named\"\n\
                check = \"after_x60.traps_per_iteration == 1\"\n";
    let dir = scratch("variant-core-check");
    let p = write(&dir, "r.toml", scenario(tail).as_bytes());
    let out = trapscope_within(&["check", &p], LIMIT);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    for want in [
        "  ok    [x60] on its core (198 == 198)",
        "  ok    [x60] no core named (1 == 1)",
    ] {
        let n = text.lines().filter(|l| *l == want).count();
        assert_eq!(n, 1, "{want:?} {n} times in:\n{text}");
    }
    // Nothing about after_x60 on the scenario's other cores.
    assert!(
        !text
            .lines()
            .any(|l| l.contains("after_x60") && !l.contains("[x60]")),
        "{text}"
    );

    // An expectation whose variants never run on one core together fails,
    // saying why, instead of passing unseen.
    let tail = "[[expect]]\nname = \"apart\"\n\
                check = \"after_x60.insns_per_iteration.total == after.insns_per_iteration.total\"\n";
    let p = write(&dir, "apart.toml", scenario(tail).as_bytes());
    let out = trapscope_within(&["check", &p], LIMIT);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("  FAIL  apart: no core runs all of after_x60, after")),
        "{text}"
    );
}
