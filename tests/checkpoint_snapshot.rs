//! Checkpoints on a snapshot (issue 14): trapscope's own Sv39 minikernel
//! booted in qemu-system-riscv64 and stopped at its 20th user ecall, then
//! run from the snapshot with checkpoints. Restoring one and re-executing
//! to a seeded random target gives what a fresh machine from the snapshot
//! gives at that target: registers, CSRs, all 128 MiB of RAM, events and
//! cycles. Skips with a reason when QEMU is absent; CI requires it.

use trapscope::scenario::Scenario;
use trapscope::session::checkpoint::Checkpoints;
use trapscope::session::{self, RunOpts};
use trapscope::snapshot::take::Booted;

mod common;
mod snapshot_util;
use common::checkpoint::{Rng, assert_same, seed, state};

#[test]
fn restore_and_rerun_on_a_snapshot_equals_a_fresh_resume() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("trapscope-cpsnap-{}", std::process::id()));
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
