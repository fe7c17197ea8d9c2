//! minikernel-sv39.elf (the minikernel assembled with SV39 defined) under
//! trapscope: the kernel turns Sv39 on before the user program starts, and
//! every scenario's measured loop then runs with satp != 0 and gives the
//! same figures as the identity build. The only extra instructions are the
//! paging set-up at boot, outside every loop.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use trapscope::machine::{Outcome, Program, Until};
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts};
use trapscope::trace::Priv;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sv39_program() -> Rc<Program> {
    Rc::new(Program::load(&root().join("assets/guest/minikernel-sv39.elf")).unwrap())
}

/// The scenario as shipped, and the same with every variant on the sv39 build.
fn both(name: &str) -> (Scenario, Scenario) {
    let path: PathBuf = root().join("scenarios").join(name);
    let plain = Scenario::load(&path).unwrap();
    let mut paged = Scenario::load(&path).unwrap();
    let p = sv39_program();
    for v in &mut paged.variants {
        assert!(
            v.program.path.ends_with("minikernel.elf"),
            "{name}: {}",
            v.program.path.display()
        );
        v.program = p.clone();
    }
    (plain, paged)
}

/// Instructions kernel_start runs only in the sv39 build (sv39.S, hand
/// count of the linked code): `call sv39_enable` 1; in sv39_enable, `la t0,
/// _start` 2 + srli 1; three MEGAPAGE expansions of 13 each (la 2, srli,
/// bne, srli, andi, slli, la 2, add, slli, ori, sd); the root entry 10 (la
/// 2, srli, slli, ori, la 2, slli, add, sd); SV39_ON 8 (la 2, srli, li 2,
/// or, csrw satp, sfence.vma); knob_pagefault_bench's test 3 (ld 2, beqz:
/// off, zz-pagefault.S's set-up does not run); ret 1.
const SV39_SETUP: u64 = 1 + 3 + 3 * 13 + 10 + 8 + 3 + 1;

#[test]
fn the_syscall_loop_runs_with_sv39_on() {
    let (_, s) = both("ras-trap-entry.toml");
    for v in &s.variants {
        let mut m = session::build_machine(&s, v, &RunOpts::default()).unwrap();
        let at = v.program.symbol("bench_timed_loop").unwrap().addr;
        let root = v.program.symbol("sv39_root").unwrap().addr;
        let o = m.run(&Until {
            addrs: vec![at],
            max_insns: Some(1_000_000),
            ..Until::default()
        });
        assert_eq!(o, Outcome::ReachedAddr(at), "{}", v.name);
        assert_eq!(m.priv_(), Priv::U);
        // satp: MODE 8 (Sv39) in bits 63:60, ASID 0, PPN = the root table.
        assert_eq!(m.csr(0x180), Some((8 << 60) | (root >> 12)), "{}", v.name);
    }
}

#[test]
fn every_scenario_gives_the_identity_builds_figures() {
    for name in [
        "ras-trap-entry.toml",
        "irq-trap-entry.toml",
        "vstate-initial.toml",
        "vstate-discard.toml",
        "vector-context-switch.toml",
        "zalrsc-atomics.toml",
        "amo-speed-probe.toml",
        "probe-in-lrsc.toml",
        "fp-lazy-switch.toml",
    ] {
        let (plain, paged) = both(name);
        for (a, b) in plain.variants.iter().zip(&paged.variants) {
            let ra = session::run_variant(&plain, a, &RunOpts::default()).unwrap();
            let rb = session::run_variant(&paged, b, &RunOpts::default()).unwrap();
            let what = format!("{name} {}", a.name);
            assert_eq!(ra.outcome, rb.outcome, "{what}: {:?}", rb.error);
            assert_eq!(ra.exit_code, rb.exit_code, "{what}");
            assert_eq!(ra.interrupts, rb.interrupts, "{what}");
            if name == "irq-trap-entry.toml" {
                // Its tick comes knob_timer_period ticks after boot, in
                // instructions without a core: the paging set-up moves the
                // loop, not the tick, so where it lands differs by design.
                continue;
            }
            assert_eq!(ra.iterations, rb.iterations, "{what}");
            assert_eq!(ra.insns_per_iteration, rb.insns_per_iteration, "{what}");
            assert_eq!(ra.traps_per_iteration, rb.traps_per_iteration, "{what}");
            assert_eq!(ra.traps, rb.traps, "{what}");
            assert_eq!(ra.results, rb.results, "{what}");
            assert_eq!(ra.uart, rb.uart, "{what}");
            // A run that shuts down during boot (knob_amo_probe = 2) never
            // reaches sv39_enable; every other one runs it once.
            let extra = rb.instructions - ra.instructions;
            assert!(
                extra == SV39_SETUP || (extra == 0 && ra.iterations <= 1),
                "{what}: {extra} extra instructions"
            );
        }
    }
}
