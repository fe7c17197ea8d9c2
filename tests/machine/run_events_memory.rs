//! `run --events` keeps up to a million events of a variant (56 bytes
//! each): the report's copy of the log shares the run's chunks, so they are
//! held once (before, the events were copied into the report: twice the
//! memory, 120 MB resident for 40 M instructions of an ebreak storm). The
//! process's peak resident memory (`VmHWM`) is the measure, so this file
//! holds one test, and it runs alone in a child process (tests/common's
//! `alone`): the other tests of its binary share the process.

use crate::common;

use std::path::Path;

use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts};
use trapscope::trace::Stamped;

fn peak_bytes() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap()
        << 10
}

#[test]
fn a_run_holds_its_events_once() {
    if !common::alone(module_path!(), "a_run_holds_its_events_once") {
        return;
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml");
    let s = Scenario::load(&path).unwrap();
    let cap = 1_000_000;
    let opts = RunOpts {
        log_events: cap,
        // As `run` builds it: no block stream.
        history: session::NO_HISTORY,
        // Retired ranges are kept too: a few instructions each, so the
        // log is full within a few million instructions.
        set: vec![("iterations".to_string(), 40_000)],
        ..RunOpts::default()
    };
    let before = peak_bytes();
    let r = session::run_variant(&s, &s.variants[0], &opts).unwrap();
    let grown = peak_bytes() - before;
    assert_eq!(r.log.len(), cap, "the log is full");
    assert!(r.log_dropped > 0);
    let events = (cap * std::mem::size_of::<Stamped>()) as u64;
    // The log once, and the machine (well under the log's 53 MiB); twice
    // the log would pass this.
    assert!(
        grown < events * 3 / 2,
        "the peak grew {} MiB for {} MiB of events",
        grown >> 20,
        events >> 20
    );
    eprintln!(
        "peak +{} MiB for {} MiB of events",
        grown >> 20,
        events >> 20
    );
}
