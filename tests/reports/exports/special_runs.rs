//! Runs the exports must show as they are (split from exports.rs, whose
//! helpers it uses): an SC that never had a reservation, named in the LR/SC
//! summary and counted in its run; interrupts as their own kind; and an
//! unfinished run, traced and exiting as `run` does.

use super::*;

/// ras-trap-entry runs no LR; the exit path's dummy `sc.d`
/// (ret_from_exception) fails every time, for want of any reservation.
#[test]
fn an_sc_that_never_had_a_reservation_says_so_and_counts_its_run() {
    let text = stdout(&["run", RAS, "--events"]);
    assert!(!text.contains("used up the reservation"), "{text}");
    let scs: Vec<&str> = text.lines().filter(|l| l.contains("  sc  ")).collect();
    assert!(!scs.is_empty());
    assert!(
        scs.iter()
            .all(|l| l.contains("no reservation was ever taken (no LR has run)")),
        "{scs:?}"
    );
    // That SC writes its result to x0 (entry.S's exit path: `sc.d zero`):
    // the line says it clears the reservation, failing by design, rather
    // than reading like a fault.
    assert!(
        scs.iter()
            .all(|l| l.contains("clears the reservation (") && l.contains("failing is its purpose")),
        "{scs:?}"
    );
    // The guest's only SC is the exit path's, once per trap return to
    // user: every failure is of that one SC, in one run.
    let j = json(&["run", RAS, "--format", "json"]);
    for v in j["variants"].as_array().unwrap() {
        let l = &v["lrsc"];
        assert_eq!(l["lr"], 0.0);
        assert_eq!(l["max_fail_run"], l["sc_fail"]);
        assert_eq!(l["sc_unreserved"], l["sc_fail"]);
        let fails = l["sc_fail"].as_f64().unwrap();
        assert_eq!(fails, v["events"]["sc"].as_f64().unwrap());
        let line = format!(
            "lr/sc         0 SCs succeeded, {fails} failed, all with no reservation, as no LR ran (a trap return's sc, which only clears one, fails by design) (longest run of failures of one SC: {fails})"
        );
        assert!(text.contains(&line), "{line}\n{text}");
    }
}

/// A trap taken for an interrupt is exported as kind "interrupt": xcause
/// with its MSB set (priv spec §3.1.15), and as an instant of that
/// category in the trace.
#[test]
fn interrupts_are_their_own_kind_in_the_exports() {
    let s = "scenarios/irq-trap-entry.toml";
    let j = json(&["run", s, "--events", "--format", "json"]);
    let ev: Vec<&Value> = j["variants"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|v| v["events"].as_array().unwrap())
        .collect();
    let irqs: Vec<&&Value> = ev.iter().filter(|e| e["kind"] == "interrupt").collect();
    assert!(!irqs.is_empty());
    for e in &irqs {
        let cause = e["fields"]["cause"].as_str().unwrap();
        let c = u64::from_str_radix(cause.trim_start_matches("0x"), 16).unwrap();
        assert_eq!(c >> 63, 1, "{e}");
    }
    for e in ev.iter().filter(|e| e["kind"] == "trap") {
        let c = e["fields"]["cause"].as_str().unwrap();
        let c = u64::from_str_radix(c.trim_start_matches("0x"), 16).unwrap();
        assert_eq!(c >> 63, 0, "an exception: {e}");
    }
    let t = json(&["run", s, "--format", "perfetto"]);
    let tev = t["traceEvents"].as_array().unwrap();
    check_fields(tev);
    check_nesting(tev);
    let n = tev
        .iter()
        .filter(|e| e["ph"] == "i" && e["cat"] == "interrupt")
        .count();
    assert_eq!(n, irqs.len());
}

/// A variant that does not finish still gets its trace (up to where it
/// stopped), and the exit status is run's: 125 for a guest fault.
#[test]
fn an_unfinished_run_is_traced_and_exits_as_run_does() {
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args([
            "run",
            "scenarios/probe-in-lrsc.toml",
            "-v",
            "cmpxchg",
            "--format",
            "perfetto",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(125));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("trapscope: variant cmpxchg: livelock"),
        "{err}"
    );
    let t: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ev = t["traceEvents"].as_array().unwrap();
    check_fields(ev);
    assert!(
        ev.iter().any(|e| e["cat"] == "fault"),
        "the fault is an event"
    );
}
