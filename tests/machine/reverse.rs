//! Reverse-continue's search: the stream of retired blocks
//! answers "the last time execution was about to run one of these
//! addresses before instruction N". The oracle single-steps the same
//! guest and notes the count each time the pc is one of them.

use std::collections::BTreeSet;
use std::path::Path;

use trapscope::machine::{Machine, Outcome};
use trapscope::scenario::Scenario;
use trapscope::session::checkpoint::Checkpoints;
use trapscope::session::stats::Stats;
use trapscope::session::{self, RunOpts};

fn load(name: &str) -> Scenario {
    Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(name),
    )
    .unwrap()
}

fn opts(s: &Scenario) -> RunOpts {
    RunOpts {
        core: s.cores.first().cloned(),
        ..RunOpts::default()
    }
}

/// Every count below `len` at which the pc was in `addrs`, stepping.
fn oracle(m: &mut Machine<Stats>, addrs: &BTreeSet<u64>, len: u64) -> Vec<u64> {
    let mut hits = Vec::new();
    while m.executed() < len {
        if addrs.contains(&m.pc()) {
            hits.push(m.executed());
        }
        if m.step() != Outcome::Stepped {
            break;
        }
    }
    hits
}

fn check(name: &str, symbols: &[&str], len: u64) {
    let s = load(name);
    let v = &s.variants[0];
    let addrs: BTreeSet<u64> = symbols
        .iter()
        .map(|n| v.program.symbol(n).unwrap_or_else(|| panic!("{n}")).addr)
        .collect();
    let mut stepped = session::build_machine(&s, v, &opts(&s)).unwrap();
    let hits = oracle(&mut stepped, &addrs, len);
    assert!(hits.len() >= 3, "{name}: only {} hits", hits.len());
    // The same run by blocks, with checkpoints (the TUI's way).
    let mut m = session::build_machine(&s, v, &opts(&s)).unwrap();
    let mut cps = Checkpoints::new(&mut m, 64 << 20).unwrap();
    cps.every = 10_000;
    cps.run_to(&mut m, len, false, &mut |m, n| session::run_to(m, n))
        .unwrap();
    let want = |now: u64| hits.iter().copied().filter(|&h| h < now).max();
    let stream = &m.observer().stream;
    for now in (0..len).step_by(997).chain([len, hits[1], hits[1] + 1]) {
        assert_eq!(
            stream.last_hit_before(now, &addrs),
            want(now),
            "{name}: before {now}"
        );
    }
    // The arrivals at one address in a span (what Tab and :core count).
    for &a in &addrs {
        let mut one = BTreeSet::new();
        one.insert(a);
        let mut m1 = session::build_machine(&s, v, &opts(&s)).unwrap();
        let at_a = oracle(&mut m1, &one, len);
        for (from, to) in [(0, len), (hits[0], hits[2]), (hits[1] + 1, len / 2)] {
            let want = at_a.iter().filter(|&&h| h >= from && h < to).count() as u64;
            assert_eq!(
                stream.hits_between(from, to, a),
                Some(want),
                "{name}: arrivals at {a:#x} in {from}..{to}"
            );
        }
    }
    // After going back, the stream ends where the machine is.
    let back = len / 3;
    cps.go_to(&mut m, back, &mut |m, n| session::run_to(m, n))
        .unwrap();
    let stream = &m.observer().stream;
    assert_eq!(stream.last_hit_before(len, &addrs), want(back));
    assert_eq!(stream.last_hit_before(back, &addrs), want(back));
    // To power-on, then forward again by a later checkpoint: the stream is
    // the one that checkpoint holds, whole.
    cps.go_to(&mut m, 0, &mut |m, n| session::run_to(m, n))
        .unwrap();
    let (_, t) = cps
        .go_to(&mut m, len - 5, &mut |m, n| session::run_to(m, n))
        .unwrap();
    assert!(t.from.is_some_and(|f| f > 0), "restored {:?}", t.from);
    let stream = &m.observer().stream;
    for now in (0..len - 5).step_by(1361) {
        assert_eq!(
            stream.last_hit_before(now, &addrs),
            want(now),
            "{name}: again before {now}"
        );
    }
}

#[test]
fn the_stream_finds_the_last_hit_on_the_syscall_loop() {
    check(
        "ras-trap-entry.toml",
        &["bench_timed_loop", "handle_exception"],
        120_000,
    );
}

#[test]
fn the_stream_finds_the_last_hit_on_the_lrsc_loop() {
    check("zalrsc-atomics.toml", &["atomics_timed_loop"], 120_000);
}

#[test]
fn no_breakpoint_reached_is_none() {
    let s = load("ras-trap-entry.toml");
    let mut m = session::build_machine(&s, &s.variants[0], &opts(&s)).unwrap();
    session::run_to(&mut m, 50_000);
    let never: BTreeSet<u64> = [0x10].into();
    assert_eq!(m.observer().stream.last_hit_before(50_000, &never), None);
}

/// The power-on instruction, searched for from deep in the run (after
/// jumps back and forth), is found at count 0.
#[test]
fn a_hit_at_power_on_is_found_from_deep_in_the_run() {
    let s = load("ras-trap-entry.toml");
    let v = &s.variants[0];
    let mut m = session::build_machine(&s, v, &opts(&s)).unwrap();
    let entry: BTreeSet<u64> = [v.program.entry].into();
    let mut cps = Checkpoints::new(&mut m, 64 << 20).unwrap();
    cps.run_to(&mut m, 300_000, false, &mut |m, n| session::run_to(m, n))
        .unwrap();
    assert_eq!(
        m.observer().stream.last_hit_before(300_000, &entry),
        Some(0)
    );
    // Back, forth by checkpoint, and back again: the stream is each
    // checkpoint's own.
    for back in [1, 7, 5000, 123_456, 299_000, 10, 200_000, 3] {
        cps.go_to(&mut m, 300_000 - back, &mut |m, n| session::run_to(m, n))
            .unwrap();
        assert_eq!(
            m.observer().stream.last_hit_before(m.executed(), &entry),
            Some(0),
            "after going back {back}"
        );
    }
}
