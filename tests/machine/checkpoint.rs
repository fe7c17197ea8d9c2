//! Checkpoints (docs/decisions.md D7): restoring one and re-executing to a target gives
//! exactly the state a run from power-on to that target gives. The oracle
//! is the run from power-on, on a machine that never saw a checkpoint: the
//! same registers (GPRs, pc, CSRs, FP, V), RAM, events and modelled cycles,
//! and the same again after both run on, which catches state a checkpoint
//! forgot that shows only later (predictors, the pipeline, devices).
//!
//! Targets are drawn from a seeded generator, printed with each failure,
//! so that a failure can be reproduced (TRAPSCOPE_CHECKPOINT_SEED).

use std::path::Path;

use trapscope::machine::{Machine, Outcome};
use trapscope::scenario::Scenario;
use trapscope::session::checkpoint::Checkpoints;
use trapscope::session::stats::Stats;
use trapscope::session::{self, RunOpts};

use crate::common;
use common::checkpoint::{Rng, assert_same, seed, state};

fn opts(s: &Scenario) -> RunOpts {
    RunOpts {
        core: s.cores.first().cloned(),
        log_events: 50_000,
        ..RunOpts::default()
    }
}

fn run_to(m: &mut Machine<Stats>, n: u64) -> Outcome {
    session::run_to(m, n)
}

/// How far a variant runs before it ends (its budget, capped at `cap`).
fn length(s: &Scenario, v: usize, cap: u64) -> u64 {
    let mut m = session::build_machine(s, &s.variants[v], &opts(s)).unwrap();
    run_to(&mut m, cap);
    m.executed()
}

/// For `targets` drawn at random below the variant's length: a machine
/// that ran forward with checkpoints to the end and then went to each
/// target, against a fresh machine run to it from power-on.
fn check_variant(s: &Scenario, v: usize, rng: &mut Rng, targets: usize, cap: u64, what: &str) {
    let o = opts(s);
    let len = length(s, v, cap);
    assert!(len > 0, "{what}: ran no instruction");
    let mut m = session::build_machine(s, &s.variants[v], &o).unwrap();
    let mut cps = Checkpoints::new(&mut m, 64 << 20).unwrap();
    cps.every = (len / 7).max(16);
    cps.run_to(&mut m, len, false, &mut run_to).unwrap();
    assert!(
        cps.len() >= 3 || len < 64,
        "{what}: {} checkpoints in {len}",
        cps.len()
    );
    for t in 0..targets {
        let target = rng.below(len);
        let mut fresh = session::build_machine(s, &s.variants[v], &o).unwrap();
        let fo = run_to(&mut fresh, target);
        let (ro, travel) = cps.go_to(&mut m, target, &mut run_to).unwrap();
        let what = format!("{what}, target {t} = {target} (restored {:?})", travel.from);
        assert_eq!(fo, ro, "{what}: outcome");
        assert_same(&state(&mut fresh), &state(&mut m), &what);
        // Both run on: state the checkpoint missed shows up here.
        let on = (target + 20_000).min(len);
        run_to(&mut fresh, on);
        cps.run_to(&mut m, on, false, &mut run_to).unwrap();
        assert_same(
            &state(&mut fresh),
            &state(&mut m),
            &format!("{what}, then on to {on}"),
        );
    }
}

fn scenarios() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    v.sort();
    v
}

/// Every scenario, every variant (at most 4 each), a few random targets.
#[test]
fn restore_and_rerun_equals_a_run_from_power_on() {
    let seed = seed();
    let mut rng = Rng(seed);
    for path in scenarios() {
        let s = Scenario::load(&path).unwrap();
        for v in 0..s.variants.len().min(4) {
            let what = format!(
                "{} variant {} (seed {seed})",
                path.file_name().unwrap().to_string_lossy(),
                s.variants[v].name
            );
            check_variant(&s, v, &mut rng, 2, 150_000, &what);
        }
    }
}

/// Back and forth on one machine: each jump lands where a fresh run does,
/// whether it restores a checkpoint or runs on from where it is.
#[test]
fn back_and_forth_on_one_machine() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/zalrsc-atomics.toml");
    let s = Scenario::load(&path).unwrap();
    let seed = seed();
    let mut rng = Rng(seed ^ 0x5555);
    let o = opts(&s);
    let len = length(&s, 0, 400_000);
    let mut m = session::build_machine(&s, &s.variants[0], &o).unwrap();
    let mut cps = Checkpoints::new(&mut m, 64 << 20).unwrap();
    cps.every = 25_000;
    let mut restored = 0;
    for i in 0..12 {
        let target = rng.below(len);
        let (_, travel) = cps.go_to(&mut m, target, &mut run_to).unwrap();
        restored += usize::from(travel.from.is_some());
        let mut fresh = session::build_machine(&s, &s.variants[0], &o).unwrap();
        run_to(&mut fresh, target);
        assert_same(
            &state(&mut fresh),
            &state(&mut m),
            &format!("jump {i} to {target} (seed {seed})"),
        );
    }
    assert!(restored > 0, "no jump restored a checkpoint");
}

/// The trail a re-execution leaves: going back one instruction from deep
/// in a run restores a checkpoint at most `every` back, and the next step
/// back finds one within the fine interval.
#[test]
fn a_step_back_re_executes_little() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml");
    let s = Scenario::load(&path).unwrap();
    let mut m = session::build_machine(&s, &s.variants[0], &opts(&s)).unwrap();
    let mut cps = Checkpoints::new(&mut m, 64 << 20).unwrap();
    let every = cps.every;
    cps.run_to(&mut m, 5 * every + 123, false, &mut run_to)
        .unwrap();
    let here = m.executed();
    let (_, t1) = cps.go_to(&mut m, here - 1, &mut run_to).unwrap();
    assert!(t1.from.is_some(), "a step back restores a checkpoint");
    assert!(t1.ran < every, "ran {} of at most {every}", t1.ran);
    let (_, t2) = cps.go_to(&mut m, here - 2, &mut run_to).unwrap();
    assert!(t2.ran <= 4096, "second step back ran {}", t2.ran);
    assert_eq!(m.executed(), here - 2);
}

/// The cap holds: past it, checkpoints are thinned, far ones first.
#[test]
fn the_memory_cap_holds() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml");
    let s = Scenario::load(&path).unwrap();
    let mut m = session::build_machine(&s, &s.variants[0], &opts(&s)).unwrap();
    let probe = Checkpoints::new(&mut m, usize::MAX).unwrap();
    let one = probe.bytes();
    drop(probe);
    let mut m = session::build_machine(&s, &s.variants[0], &opts(&s)).unwrap();
    // Room for about ten checkpoints' worth.
    let cap = one * 10;
    let mut cps = Checkpoints::new(&mut m, cap).unwrap();
    cps.every = 5_000;
    cps.run_to(&mut m, 300_000, false, &mut run_to).unwrap();
    // The cap is for what checkpoints add to the first, which holds all
    // of RAM once.
    let limit = cap + m.ram_bytes() as usize;
    assert!(cps.bytes() <= limit, "{} > {limit}", cps.bytes());
    let pos = cps.positions();
    assert_eq!(pos[0], 0, "the power-on checkpoint stays");
    // Denser near the end (the focus) than at the start.
    let gaps: Vec<u64> = pos.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        gaps.first() >= gaps.last(),
        "gaps grow towards the focus: {gaps:?}"
    );
}
