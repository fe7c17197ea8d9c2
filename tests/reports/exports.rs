//! The exports: `run --events --format json|csv`, `run --format perfetto`
//! (checked against the trace-event format's required fields), and the
//! LR/SC summary of an SC that never had a reservation (a dummy `sc.d` on the exit path).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts, timeline};
use trapscope::trace::EventKind;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// stdout of a successful `trapscope ARGS` run from the repository root.
fn stdout(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).unwrap()
}

const RAS: &str = "scenarios/ras-trap-entry.toml";

/// An axis value in integer units of the format's smallest step here
/// (picoseconds when `ts` is µs of modelled time).
fn ps(v: &Value) -> i64 {
    (v.as_f64().unwrap() * 1e6).round() as i64
}

/// Every event has what the trace-event format requires for its phase:
/// name, ph, ts, pid, tid; `dur` for complete slices; `args` for counters
/// (numbers) and metadata; a scope for instants.
fn check_fields(ev: &[Value]) {
    for e in ev {
        for k in ["name", "ph", "ts", "pid", "tid"] {
            assert!(e.get(k).is_some(), "no {k}: {e}");
        }
        assert!(e["name"].is_string() && e["ts"].is_number(), "{e}");
        assert!(e["pid"].is_u64() && e["tid"].is_u64(), "{e}");
        match e["ph"].as_str().unwrap() {
            "X" => assert!(e["dur"].as_f64().is_some_and(|d| d >= 0.0), "{e}"),
            "i" => assert!(
                ["t", "p", "g"].contains(&e["s"].as_str().unwrap_or("")),
                "{e}"
            ),
            "C" => {
                let a = e["args"].as_object().expect("counter args");
                assert!(!a.is_empty() && a.values().all(Value::is_number), "{e}");
            }
            "M" => {
                let n = e["name"].as_str().unwrap();
                assert!(
                    [
                        "process_name",
                        "process_sort_index",
                        "process_labels",
                        "thread_name",
                        "thread_sort_index"
                    ]
                    .contains(&n),
                    "{e}"
                );
                assert!(e["args"].is_object(), "{e}");
            }
            ph => panic!("phase {ph} is not one trapscope writes: {e}"),
        }
    }
}

/// Slices on one track either nest or are disjoint: never a partial
/// overlap (the viewer would draw them wrong).
/// A slice: its start and end (ps or instructions) and name.
type Slice = (i64, i64, String);

fn check_nesting(ev: &[Value]) {
    let mut tracks: HashMap<(u64, u64), Vec<Slice>> = HashMap::new();
    for e in ev.iter().filter(|e| e["ph"] == "X") {
        let a = ps(&e["ts"]);
        let b = a + ps(&e["dur"]);
        tracks
            .entry((e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap()))
            .or_default()
            .push((a, b, e["name"].as_str().unwrap().to_string()));
    }
    assert!(!tracks.is_empty());
    for (track, mut v) in tracks {
        v.sort_by_key(|(a, b, _)| (*a, -*b));
        let mut open: Vec<Slice> = Vec::new();
        for s in v {
            while open.last().is_some_and(|o| o.1 <= s.0) {
                open.pop();
            }
            if let Some(o) = open.last() {
                assert!(s.1 <= o.1, "{track:?}: {s:?} overlaps {o:?} partly");
            }
            open.push(s);
        }
    }
}

#[test]
fn the_perfetto_trace_has_the_format_fields_nests_and_shows_both_variants() {
    let t = json(&["run", RAS, "--core", "u74", "--format", "perfetto"]);
    let ev = t["traceEvents"].as_array().expect("traceEvents");
    check_fields(ev);
    check_nesting(ev);
    let time = t["otherData"]["time"].to_string();
    assert!(time.contains("µs") && time.contains("u74"), "{time}");
    // One process per variant, named after it, sorted before over after.
    let run = json(&["run", RAS, "--core", "u74", "--format", "json"]);
    let variants = run["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 2);
    for (i, v) in variants.iter().enumerate() {
        let pid = i as u64 + 1;
        let name = v["variant"].as_str().unwrap();
        let mine: Vec<&Value> = ev.iter().filter(|e| e["pid"] == pid).collect();
        let pname = mine
            .iter()
            .find(|e| e["name"] == "process_name")
            .expect("a process name");
        assert!(
            pname["args"]["name"].as_str().unwrap().starts_with(name),
            "{pname}"
        );
        let sort = mine
            .iter()
            .find(|e| e["name"] == "process_sort_index")
            .unwrap();
        assert_eq!(sort["args"]["sort_index"], pid);
        // Traps are instants, as many as the run counts.
        let traps = mine
            .iter()
            .filter(|e| e["ph"] == "i" && e["cat"] == "trap")
            .count();
        assert_eq!(
            traps as u64,
            v["events"]["trap"].as_u64().unwrap(),
            "{name}"
        );
        assert!(
            mine.iter()
                .any(|e| e["ph"] == "i" && e["name"] == "ecall from U-mode")
        );
        // The counter of cycles per iteration, over the timed iterations,
        // is the estimate's figure (the trace steps; the report ran by
        // blocks); the phases' slices add up to its phases.
        let per_iter: Vec<f64> = mine
            .iter()
            .filter(|e| e["ph"] == "C" && e["name"] == "cycles per iteration")
            .map(|e| e["args"]["cycles"].as_f64().unwrap())
            .collect();
        let iters = v["iterations"].as_u64().unwrap() as usize;
        assert_eq!(per_iter.len(), iters, "{name}: a counter per iteration");
        let est = &v["estimate"];
        let mean = per_iter.iter().sum::<f64>() / iters as f64;
        let want = est["cycles_per_iteration"].as_f64().unwrap();
        assert!((mean - want).abs() < 0.01, "{name}: {mean} vs {want}");
        let timed: Vec<(i64, i64)> = mine
            .iter()
            .filter(|e| e["ph"] == "X" && e["args"]["counted"] == "timed")
            .map(|e| (ps(&e["ts"]), ps(&e["ts"]) + ps(&e["dur"])))
            .collect();
        assert_eq!(timed.len(), iters);
        let mut phases: BTreeMap<String, f64> = BTreeMap::new();
        for e in mine.iter().filter(|e| e["cat"] == "phase") {
            let a = ps(&e["ts"]);
            if timed.iter().any(|(s, t)| a >= *s && a < *t) {
                // ps at 1.5 GHz → cycles.
                *phases
                    .entry(e["name"].as_str().unwrap().into())
                    .or_default() += ps(&e["dur"]) as f64 * 1.5e-3;
            }
        }
        for (p, c) in est["phases"].as_object().unwrap() {
            let got = phases.get(p).copied().unwrap_or(0.0) / iters as f64;
            let c = c.as_f64().unwrap();
            assert!((got - c).abs() < 0.01, "{name} {p}: {got} vs {c}");
        }
        for counter in ["cycles per iteration", "RAS depth"] {
            assert!(
                mine.iter().any(|e| e["ph"] == "C" && e["name"] == counter),
                "{name}: no {counter} track"
            );
        }
    }
}

#[test]
fn without_a_core_the_trace_counts_instructions_and_says_so() {
    let t = json(&["run", RAS, "--format", "perfetto"]);
    let ev = t["traceEvents"].as_array().unwrap();
    check_fields(ev);
    check_nesting(ev);
    let time = t["otherData"]["time"].to_string();
    assert!(time.contains("instructions"), "{time}");
    // An iteration lasts its instructions.
    let run = json(&["run", RAS, "--format", "json"]);
    for (i, v) in run["variants"].as_array().unwrap().iter().enumerate() {
        let total = v["insns_per_iteration"]["total"].as_f64().unwrap();
        let durs: Vec<u64> = ev
            .iter()
            .filter(|e| e["pid"] == i as u64 + 1 && e["args"]["counted"] == "timed")
            .map(|e| e["dur"].as_u64().unwrap())
            .collect();
        let mean = durs.iter().sum::<u64>() as f64 / durs.len() as f64;
        assert!((mean - total).abs() < 1e-9, "{mean} vs {total}");
        // No modelled cycles without a core: no counters.
        assert!(!ev.iter().any(|e| e["ph"] == "C"));
    }
}

/// The exported events are the run's events, in order, with the
/// instruction count the log has; cycles only with a core, never going
/// back.
#[test]
fn the_timeline_holds_the_runs_events_with_rising_cycle_stamps() {
    let s = Scenario::load(&root().join(RAS)).unwrap();
    let core = trapscope::cost::Profile::find("u74").unwrap();
    let opts = RunOpts {
        core: Some(std::rc::Rc::new(core)),
        log_events: 1_000_000,
        ..RunOpts::default()
    };
    for v in &s.variants {
        let run = session::run_variant(&s, v, &opts).unwrap();
        let t = timeline::record(&s, v, &opts).unwrap();
        let want: Vec<_> = run
            .log
            .iter()
            .filter(|e| e.event.kind() != EventKind::Retired)
            .map(|e| (e.at, e.event.clone()))
            .collect();
        let got: Vec<_> = t
            .events
            .iter()
            .map(|e| (e.at.insns, e.event.clone()))
            .collect();
        assert_eq!(got, want, "{}", v.name);
        let mut last = 0;
        for e in &t.events {
            let c = e.at.milli.expect("a cycle with a core");
            assert!(c >= last, "{}: cycles go back at event {}", v.name, e.index);
            last = c;
        }
        // ecall from U-mode (cause 8) is taken from U-mode.
        for e in &t.events {
            if let trapscope::trace::Event::TrapEnter { cause: 8, .. } = e.event {
                assert_eq!(e.priv_, trapscope::trace::Priv::U);
            }
        }
    }
}

#[test]
fn events_as_json_give_every_field_of_each_event() {
    let j = json(&["run", RAS, "--core", "u74", "--events", "--format", "json"]);
    let vs = j["variants"].as_array().unwrap();
    assert_eq!(vs.len(), 2);
    for v in vs {
        assert_eq!(v["core"], "u74");
        let ev = v["events"].as_array().unwrap();
        assert!(!ev.is_empty());
        for (i, e) in ev.iter().enumerate() {
            assert_eq!(e["index"], i as u64);
            assert!(e["instructions"].is_u64() && e["cycle"].is_number(), "{e}");
            assert!(["U", "S", "M"].contains(&e["privilege"].as_str().unwrap()));
            assert!(e["kind"].is_string() && e["fields"].is_object(), "{e}");
            assert!(e["kind"] != "retired");
        }
        let ecall = ev.iter().find(|e| e["kind"] == "trap").expect("a trap");
        // xcause 8: environment call from U-mode (priv spec table 3.6).
        assert_eq!(ecall["fields"]["cause"], "0x8");
        assert_eq!(ecall["privilege"], "U");
        assert_eq!(ecall["fields"]["from"], "U");
        assert!(ecall["fields"]["epc"].as_str().unwrap().starts_with("0x"));
    }
    // Without a core there is no modelled cycle.
    let j = json(&["run", RAS, "--events", "--format", "json"]);
    let e = &j["variants"][0]["events"][0];
    assert!(e["cycle"].is_null(), "{e}");
}

/// A minimal RFC 4180 reader: cells, quoted or not.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    rows
}

#[test]
fn events_as_csv_have_a_header_and_one_row_per_event() {
    let text = stdout(&["run", RAS, "--core", "u74", "--events", "--format", "csv"]);
    let rows = csv_rows(&text);
    assert_eq!(
        rows[0],
        [
            "variant",
            "index",
            "instructions",
            "cycle",
            "privilege",
            "kind",
            "fields",
            "text"
        ]
    );
    let j = json(&["run", RAS, "--core", "u74", "--events", "--format", "json"]);
    let total: usize = j["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["events"].as_array().unwrap().len())
        .sum();
    assert_eq!(rows.len() - 1, total);
    for r in &rows[1..] {
        assert_eq!(r.len(), 8, "{r:?}");
        assert!(r[3].parse::<f64>().is_ok(), "{r:?}");
    }
    // The same events as the JSON, cell by cell.
    let first = &j["variants"][0]["events"][0];
    assert_eq!(rows[1][2], first["instructions"].to_string());
    assert_eq!(rows[1][5], first["kind"].as_str().unwrap());
    assert_eq!(rows[1][7], first["text"].as_str().unwrap());
}

#[test]
fn csv_without_events_is_one_line_and_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(["run", RAS, "--format", "csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("trapscope: ") && err.contains("--events"),
        "{err}"
    );
}

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
