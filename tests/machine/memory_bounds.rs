//! Memory that a long run holds stays bounded (docs/measurements/speed.md states the
//! bounds): the checkpoints' block-stream chunks count against their cap,
//! and a storm of traps that never return holds a bounded list of them.
//! The structures' bytes are counted, not timed; the speed page extrapolates.

use crate::common;

use std::path::Path;
use std::rc::Rc;

use trapscope::machine::{Machine, Outcome, Until};
use trapscope::scenario::Scenario;
use trapscope::session::checkpoint::Checkpoints;
use trapscope::session::guests::{Hostile, hostile};
use trapscope::session::stats::traps::MAX_OPEN;
use trapscope::session::stats::{CoreModel, Markers, PhaseMap, Stats};
use trapscope::session::{self, RunOpts};

/// The tests of this file one at a time: one measures the process's
/// resident memory, which the other's allocations would count in (that one
/// runs alone in a child process, `common::alone`, as the other tests of
/// its binary share the process).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The checkpoints of a long run keep alive no more of the block stream
/// than their cap: before, each held every chunk back to the live
/// stream's 32 MiB window, so chunks the live stream had dropped stayed
/// alive in old checkpoints, about 4 bytes an instruction without bound.
#[test]
fn checkpoints_hold_the_block_stream_within_their_cap() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml");
    let s = Scenario::load(&path).unwrap();
    let opts = RunOpts {
        core: s.cores.first().cloned(),
        log_events: 50_000,
        set: vec![("iterations".to_string(), 20_000)],
        ..RunOpts::default()
    };
    let mut m = session::build_machine(&s, &s.variants[0], &opts).unwrap();
    let cap = 2 << 20;
    let mut cps = Checkpoints::new(&mut m, cap).unwrap();
    let target = 3_900_000;
    cps.run_to(&mut m, target, false, &mut |m, n| session::run_to(m, n))
        .unwrap();
    assert_eq!(
        m.executed(),
        target,
        "the loop runs past 3.9 M instructions"
    );
    // The live stream holds more than the cap by then: the chunks are
    // there to be kept alive.
    let live = m.observer().stream.bytes();
    assert!(live > 2 * cap, "live stream {live} bytes");
    let held = cps.stream_held_bytes();
    // The log's chunks too: each checkpoint keeps the newest 2,048 events,
    // which outlive the live log's 50,000 as the run goes on (about 110 KiB
    // a checkpoint, not counted before).
    let log = cps.log_held_bytes();
    assert!(
        held + log <= cap,
        "checkpoints hold {held} bytes of stream and {log} of events, cap {cap}"
    );
    let limit = cap + m.ram_bytes() as usize;
    assert!(cps.bytes() <= limit, "{} > {limit}", cps.bytes());
    eprintln!(
        "3.9 M instructions: checkpoints {} bytes ({held} of stream, {log} of events), live stream {live} bytes",
        cps.bytes(),
    );
}

/// The events each checkpoint keeps (the newest 2,048) count against the
/// cap too: with a short stream kept per checkpoint, they are most of what
/// a checkpoint holds, and were not counted (about 110 KiB a checkpoint
/// beyond the cap: 13 checkpoints of a 1 MiB cap held 1.3 MiB of events).
#[test]
fn checkpoints_hold_their_events_within_their_cap() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml");
    let s = Scenario::load(&path).unwrap();
    let cap = 1 << 20;
    let opts = RunOpts {
        core: s.cores.first().cloned(),
        log_events: 50_000,
        set: vec![("iterations".to_string(), 20_000)],
        // A fifth for the stream, the rest (1 MiB) for the checkpoints.
        history: Some(cap + cap / 4),
        ..RunOpts::default()
    };
    let mut m = session::build_machine(&s, &s.variants[0], &opts).unwrap();
    let mut cps = Checkpoints::for_machine(&mut m).unwrap();
    cps.run_to(&mut m, 1_000_000, false, &mut |m, n| session::run_to(m, n))
        .unwrap();
    assert!(cps.thinned > 0, "the cap was never reached");
    let (stream, log) = (cps.stream_held_bytes(), cps.log_held_bytes());
    assert!(
        stream + log <= cap,
        "{} checkpoints hold {stream} bytes of stream and {log} of events, cap {cap}",
        cps.len()
    );
}

/// A storm of `ebreak`s whose handler jumps back instead of returning,
/// run headless with the full observer: the traps it leaves open are
/// bounded (about 64 bytes a trap before), and so is the process's memory:
/// what grows is the block stream up to its 32 MiB.
#[test]
fn a_storm_of_traps_never_returned_from_stays_bounded() {
    if !common::alone(
        module_path!(),
        "a_storm_of_traps_never_returned_from_stays_bounded",
    ) {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let program = Rc::new(hostile(Hostile::EbreakNoReturn));
    let core = Rc::new(trapscope::cost::Profile::find("u74").unwrap());
    let stats = Stats::new(
        Rc::new(PhaseMap::new(&program, &[])),
        program.clone(),
        Some(CoreModel::new(core)),
        Markers::default(),
        trapscope::trace::EventLog::new(1, true),
    );
    let mut m = Machine::new(program, stats).unwrap();
    let before = common::status_kib("VmRSS:");
    // Cut off as a storm first (tests/machine/storms.rs): run on past it.
    let total = 3_000_000;
    while m.executed() < total {
        let o = m.run(&Until {
            max_insns: Some(total - m.executed()),
            ..Until::default()
        });
        match o {
            Outcome::Budget => break,
            Outcome::Fault(trapscope::trace::GuestFault::Storm { .. }) => {}
            o => panic!("{o:?}"),
        }
    }
    // Three instructions a trap: addi, ebreak, then the handler's jump.
    let traps = m.observer().traps.open.len() as u64 + m.observer().traps.dropped;
    assert!(traps >= 900_000, "{traps} traps");
    assert_eq!(m.observer().traps.open.len(), MAX_OPEN);
    let grown = common::status_kib("VmRSS:").saturating_sub(before);
    assert!(grown < 100 << 10, "grew {grown} KiB over {traps} traps");
}
