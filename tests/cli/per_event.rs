//! A measured figure per event rather than per iteration (seed 004's "an
//! AMO emulated by an M-mode trap costs about 600 cycles"): `[[reference]]`
//! with `phase` and `per`, whose estimate is the phase's cycles per
//! iteration over `per`, and the errors for a malformed one.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;
use trapscope::scenario::Scenario;

const LIMIT: Duration = Duration::from_secs(300);

fn json_of(args: &[&str]) -> Value {
    let out = common::trapscope_within(args, LIMIT);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_per_event_figure_is_the_phase_over_its_count() {
    // zalrsc-atomics.toml: 600 cycles per emulated AMO, the amo_emulation
    // phase over the 8 AMOs of each ZAAMO=y call.
    let s = "scenarios/zalrsc-atomics.toml";
    let fid = json_of(&["fidelity", s, "--format", "json"]);
    let cmp = json_of(&["compare", s, "--format", "json"]);
    let row = cmp["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["core"] == "p8700" && r["variant"] == "zaamo_y")
        .unwrap();
    let phase = row["estimate"]["phases"]["amo_emulation"]
        .as_f64()
        .or_else(|| row["phases"]["amo_emulation"].as_f64())
        .unwrap_or_else(|| panic!("no amo_emulation phase in {row}"));
    let fig = fid["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["core"] == "p8700" && g["variant"] == "zaamo_y")
        .unwrap();
    assert_eq!(fig["unit"], "cycles");
    assert_eq!(fig["measured"].as_f64(), Some(600.0));
    let est = fig["estimate"].as_f64().unwrap();
    assert!((est - phase / 8.0).abs() < 1e-9, "{est} vs {phase} / 8");
    let ratio = fig["ratio"].as_f64().unwrap();
    assert!((ratio - est / 600.0).abs() < 1e-9);
}

fn parse(tail: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = format!(
        "title = \"t\"\npatch = \"p\"\nelf = \"{}\"\ncores = [\"u74\"]\n\
         [[variants]]\nname = \"a\"\n\
         [phases]\nentry = [\"handle_exception\"]\n\
         [measure]\nstart = \"bench_timed_loop\"\nend = \"bench_timed_done\"\niteration = \"bench_timed_loop\"\n\
         [[reference]]\ncore = \"u74\"\nvariant = \"a\"\nwhat = \"w\"\nsource = \"s\"\n{tail}",
        root.join("assets/guest/minikernel.elf").display()
    );
    match Scenario::parse(&PathBuf::from("t.toml"), &src) {
        Ok(_) => String::from("ok"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_per_event_reference_names_a_phase_and_a_positive_count() {
    assert_eq!(parse("cycles = 10.0\nphase = \"entry\"\nper = 2.0\n"), "ok");
    let e = parse("cycles = 10.0\nphase = \"nope\"\nper = 2.0\n");
    assert!(
        e.starts_with("t.toml:") && e.contains("'nope' is not in [phases]"),
        "{e}"
    );
    let e = parse("cycles = 10.0\nphase = \"entry\"\n");
    assert!(e.contains("needs `per`"), "{e}");
    let e = parse("cycles = 10.0\nphase = \"entry\"\nper = 0.0\n");
    assert!(e.contains("needs `per`"), "{e}");
    let e = parse("cycles = 10.0\nper = 2.0\n");
    assert!(e.contains("needs the `phase`"), "{e}");
    let e = parse("ns = 10.0\nphase = \"entry\"\nper = 2.0\n");
    assert!(e.contains("gives `cycles`"), "{e}");
}
