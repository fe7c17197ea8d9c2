//! Stops where stepping arrives (split from lesson.rs, whose helpers it
//! uses): a stop at an intercepted instruction whose block already ran, and a
//! stop at a probed instruction, both land before the instruction, as
//! stepping does.

use super::*;

/// A lesson step (or a breakpoint) at an instruction trapscope runs itself
/// (here the lr.d that opens arch_cmpxchg) whose block ran before the stop
/// was asked for: the run stops before the instruction, where stepping
/// arrives, not after it.
#[test]
fn a_stop_at_an_intercepted_instruction_that_already_ran_stops_before_it() {
    use trapscope::machine::Until;
    let sc = Scenario::load(&root().join("scenarios/zalrsc-atomics.toml")).unwrap();
    let opts = session::RunOpts {
        core: sc.cores.first().cloned(),
        ..session::RunOpts::default()
    };
    let v = &sc.variants[1];
    let run_to = |m: &mut trapscope::machine::Machine<_>, at: u64| {
        m.run(&Until {
            max_insns: Some(10_000_000),
            addrs: vec![at],
            kinds: vec![],
        })
    };
    let mut m = session::build_machine(&sc, v, &opts).unwrap();
    let a = m.program.symbol("arch_cmpxchg").unwrap().addr;
    let wake = m.program.symbol("sys_atomics_wake_zalrsc").unwrap().addr;
    // Two calls in: arch_cmpxchg has run (its lr.d's hook is on), and
    // no stop at it was ever asked for.
    assert_eq!(run_to(&mut m, wake), Outcome::ReachedAddr(wake));
    assert_eq!(run_to(&mut m, wake), Outcome::ReachedAddr(wake));
    let from = m.executed();
    assert_eq!(run_to(&mut m, a), Outcome::ReachedAddr(a));
    assert_eq!(m.pc(), a, "stopped before the lr.d, not after it");
    // Stepping from the same point arrives at the same instruction count.
    let mut stepped = session::build_machine(&sc, v, &opts).unwrap();
    while stepped.executed() < from {
        assert_eq!(stepped.step(), Outcome::Stepped);
    }
    while stepped.pc() != a {
        assert_eq!(stepped.step(), Outcome::Stepped);
    }
    assert_eq!(stepped.executed(), m.executed());
    // Resuming from such a stop runs the instruction: the next stop is a
    // later arrival, whichever hook came first.
    for m in [&mut m, &mut session::build_machine(&sc, v, &opts).unwrap()] {
        assert_eq!(run_to(m, a), Outcome::ReachedAddr(a));
        let at = m.executed();
        assert_eq!(run_to(m, a), Outcome::ReachedAddr(a));
        assert!(m.executed() > at, "moved on from {at}");
        assert_eq!(m.pc(), a);
    }
}

/// A stop at a probed instruction (probe-in-lrsc's probe sits in
/// arch_cmpxchg) arrives before the probe's breakpoint trap, where stepping
/// arrives, not in the trap handler.
#[test]
fn a_stop_at_a_probed_instruction_stops_before_the_probe_fires() {
    use trapscope::machine::Until;
    let sc = Scenario::load(&root().join("scenarios/probe-in-lrsc.toml")).unwrap();
    let opts = session::RunOpts {
        core: sc.cores.first().cloned(),
        ..session::RunOpts::default()
    };
    let v = &sc.variants[0];
    let mut m = session::build_machine(&sc, v, &opts).unwrap();
    let site = m.program.symbol("cmpxchg_probe_site").unwrap().addr;
    let o = m.run(&Until {
        max_insns: Some(1_000_000),
        addrs: vec![site],
        kinds: vec![],
    });
    assert_eq!(o, Outcome::ReachedAddr(site));
    assert_eq!(m.pc(), site, "before the probe, not in its handler");
    let mut stepped = session::build_machine(&sc, v, &opts).unwrap();
    while stepped.pc() != site {
        assert_eq!(stepped.step(), Outcome::Stepped);
    }
    assert_eq!(stepped.executed(), m.executed());
    // Going on from there, the probe fires as it does when stepping.
    assert_eq!(m.step(), Outcome::Stepped);
    assert_eq!(stepped.step(), Outcome::Stepped);
    assert_eq!(m.pc(), stepped.pc());
    assert_ne!(m.pc(), site + 4, "the probe's trap, not the instruction");
}
