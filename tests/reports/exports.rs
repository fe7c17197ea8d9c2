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

/// The timeline and the JSON and CSV event exports.
mod events;
/// The Perfetto trace.
mod perfetto;
/// An SC without a reservation, interrupts, unfinished runs.
mod special_runs;

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
