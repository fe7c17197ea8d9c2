//! Checkpoints on a snapshot: trapscope's own Sv39 minikernel
//! booted in qemu-system-riscv64 and stopped at its 20th user ecall, then
//! run from the snapshot with checkpoints. Restoring one and re-executing
//! to a seeded random target gives what a fresh machine from the snapshot
//! gives at that target: registers, CSRs, all 128 MiB of RAM, events and
//! cycles. Skips with a reason when QEMU is absent; CI requires it.

use trapscope::machine::{Outcome, Until};
use trapscope::qemu::take::Booted;
use trapscope::scenario::Scenario;
use trapscope::session::checkpoint::Checkpoints;
use trapscope::session::{self, RunOpts};
use trapscope::trace::Priv;

use crate::common;
use crate::snapshot_util;
use common::checkpoint::{Rng, assert_same, seed, state};

/// A snapshot of the Sv39 minikernel at its 20th user ecall, with a
/// scenario over it, in a directory of its own (`tag`).
fn snapshot_scenario(tag: &str) -> (std::path::PathBuf, Scenario) {
    let dir = std::env::temp_dir().join(format!("trapscope-cpsnap-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = snapshot_util::minikernel_sv39(20);
    let mut note = |l: &str| eprintln!("{l}");
    let mut b = Booted::start(&cfg, &mut note).unwrap();
    b.run_to(cfg.at, &mut note).unwrap();
    b.quiesce().unwrap();
    b.save(&dir.join("snap")).unwrap();
    drop(b);
    let p = dir.join("s.toml");
    std::fs::write(
        &p,
        "title = \"t\"\npatch = \"p\"\ncores = [\"u74\"]\n[[variants]]\nname = \"snap\"\nsnapshot = \"snap\"\n[measure]\niteration = \"bench_timed_loop\"\niterations = 1_000_000\n",
    )
    .unwrap();
    let s = Scenario::load(&p).unwrap();
    (dir, s)
}

#[test]
fn restore_and_rerun_on_a_snapshot_equals_a_fresh_resume() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let (dir, s) = snapshot_scenario("rerun");
    let o = RunOpts {
        core: s.cores.first().cloned(),
        log_events: 50_000,
        ..RunOpts::default()
    };
    // Where the guest ends (its loop's last iteration), at most 60,000 on.
    let mut probe = session::build_machine(&s, &s.variants[0], &o).unwrap();
    session::run_to(&mut probe, 60_000);
    let len = probe.executed();
    drop(probe);
    assert!(len > 5_000, "the snapshot ran {len} instructions");
    let mut m = session::build_machine(&s, &s.variants[0], &o).unwrap();
    let mut cps = Checkpoints::new(&mut m, 1 << 30).unwrap();
    cps.every = len / 7;
    cps.run_to(&mut m, len, false, &mut |m, n| session::run_to(m, n))
        .unwrap();
    assert!(cps.len() >= 5, "{} checkpoints", cps.len());
    // A checkpoint shares the pages the run did not write: far less than
    // 128 MiB each.
    assert!(
        cps.bytes() < (128 << 20) + cps.len() * (4 << 20),
        "{} bytes in {} checkpoints",
        cps.bytes(),
        cps.len()
    );
    let seed = seed();
    let mut rng = Rng(seed ^ 0xa11);
    for t in 0..2 {
        let target = rng.below(len);
        let (_, travel) = cps
            .go_to(&mut m, target, &mut |m, n| session::run_to(m, n))
            .unwrap();
        let mut fresh = session::build_machine(&s, &s.variants[0], &o).unwrap();
        session::run_to(&mut fresh, target);
        assert_same(
            &state(&mut fresh),
            &state(&mut m),
            &format!(
                "snapshot, target {t} = {target} (restored {:?}, seed {seed})",
                travel.from
            ),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stop address first asked for while the hart is in S-mode, on user
/// code unicorn has already translated, stops the run there: unicorn drops
/// a translation by fetching its address in the current mode, which S-mode
/// may not do on a user page (smc::drop_translations). The oracle is a
/// machine that had the stop's hook before it translated anything.
#[test]
fn a_stop_asked_for_in_s_mode_on_user_code_stops_there() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let (dir, s) = snapshot_scenario("stop");
    let o = RunOpts {
        core: s.cores.first().cloned(),
        ..RunOpts::default()
    };
    let a = s.variants[0]
        .program
        .symbol("bench_timed_loop")
        .unwrap()
        .addr;
    let to_a = Until {
        max_insns: Some(50_000),
        addrs: vec![a],
        kinds: vec![],
    };
    // The oracle: the stop's hook in place from the start.
    let mut oracle = session::build_machine(&s, &s.variants[0], &o).unwrap();
    assert_eq!(oracle.run(&to_a), Outcome::ReachedAddr(a));
    let first = oracle.executed();
    // The loop's code translated (a few iterations in), then back to the
    // kernel right after the snapshot's ecall (a restore leaves unicorn's
    // translations be).
    let mut m = session::build_machine(&s, &s.variants[0], &o).unwrap();
    let mut cps = Checkpoints::new(&mut m, 1 << 30).unwrap();
    // The snapshot stops at an ecall: one step is into the kernel.
    assert_eq!(m.step(), Outcome::Stepped);
    let kernel = m.executed();
    assert_eq!(m.priv_(), Priv::S, "in the kernel at {kernel}");
    cps.take(&mut m).unwrap();
    cps.run_to(&mut m, first + 1_000, false, &mut |m, n| {
        session::run_to(m, n)
    })
    .unwrap();
    cps.go_to(&mut m, kernel, &mut |m, n| session::run_to(m, n))
        .unwrap();
    assert_eq!(m.priv_(), Priv::S);
    assert_eq!(m.run(&to_a), Outcome::ReachedAddr(a));
    assert_eq!(m.executed(), oracle.executed());
    let _ = std::fs::remove_dir_all(&dir);
}
