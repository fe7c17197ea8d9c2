//! A user jump to itself that only the timer can end (the shape of the
//! `tick` init between ticks) is skipped to the timer's deadline as idle
//! time, the same in block mode and single-stepped, on a core model and
//! without one; the per-iteration figure leaves the idle cycles out.

use std::path::Path;
use std::rc::Rc;

use trapscope::cost::Profile;
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts, VariantRun};
use trapscope::trace::{Event, EventKind};

/// guest-asm/tests/spin_timer.S: TICKS and PERIOD (timer ticks).
const TICKS: u64 = 5;
const PERIOD: u64 = 100_000;

fn run(core: Option<&str>, step: bool) -> VariantRun {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let s = Scenario::load(&root.join("tests/fixtures/spin_timer.toml")).unwrap();
    let opts = RunOpts {
        core: core.map(|c| Rc::new(Profile::find(c).unwrap())),
        single_step: step,
        log_events: 100_000,
        ..RunOpts::default()
    };
    session::run_variant(&s, s.variant("only").unwrap(), &opts).unwrap()
}

fn semantic(r: &VariantRun) -> Vec<trapscope::trace::Stamped> {
    r.log
        .iter()
        .filter(|e| e.event.kind() != EventKind::Retired)
        .cloned()
        .collect()
}

/// The spin's address: the only U-mode code (the U region's base).
const SPIN: u64 = 0x1_0000;

#[test]
fn a_spin_only_the_timer_ends_is_skipped_to_its_deadline() {
    for core in [Some("u74"), Some("c910"), None] {
        let b = run(core, false);
        let st = run(core, true);
        // The guest's own checks: 5 machine-timer interrupts, each at the
        // spin, none before its deadline.
        assert_eq!(b.exit_code, Some(0), "{core:?}: {:?}", b.error);
        assert_eq!(semantic(&b), semantic(&st), "{core:?}");
        // Executed, each spin's jump runs once per tick (then waits), so the
        // whole run is a few hundred instructions, not TICKS × PERIOD.
        let spins: u64 = b
            .log
            .iter()
            .filter_map(|e| match e.event {
                Event::Retired { pc, count, .. } if pc == SPIN => Some(u64::from(count)),
                _ => None,
            })
            .sum();
        assert_eq!(spins, TICKS, "{core:?}: one jump per tick");
        assert!(b.instructions < 1_000, "{core:?}: {}", b.instructions);
        let traps: Vec<(u64, u64)> = b
            .log
            .iter()
            .filter_map(|e| match e.event {
                Event::TrapEnter { cause, epc, .. } => Some((cause, epc)),
                _ => None,
            })
            .collect();
        assert_eq!(traps, vec![(1 << 63 | 7, SPIN); TICKS as usize], "{core:?}");
    }
}

#[test]
fn the_wait_is_idle_time_outside_the_per_iteration_figure() {
    for core in ["u74", "c910"] {
        let r = run(Some(core), false);
        let e = r.estimate.unwrap();
        let p = Profile::find(core).unwrap();
        let per_tick = p.core.clock_ghz.value * 1e9 / p.core.timebase_hz.value;
        // Five waits of nearly a period each (less the few hundred cycles
        // of the handler between them).
        let idle = e.breakdown["idle"];
        assert!(
            idle > (TICKS * PERIOD) as f64 * per_tick * 0.99,
            "{core}: {idle}"
        );
        assert_eq!(e.phases["idle"], idle, "{core}");
        // The whole run is one "iteration" here (no window): the figure
        // is the total less the idle cycles.
        assert!(
            (e.cycles_per_iteration - (e.cycles_total - idle)).abs() < 1e-6,
            "{core}: {} vs {} - {idle}",
            e.cycles_per_iteration,
            e.cycles_total
        );
        assert!(
            e.cycles_per_iteration < 5_000.0,
            "{core}: {}",
            e.cycles_per_iteration
        );
        // Nor is it a line's: the spin's jump costs what a jump costs.
        for h in &e.hot_lines {
            assert!(
                h.cycles_per_iteration < 5_000.0,
                "{core}: {} {}",
                h.loc,
                h.cycles_per_iteration
            );
        }
    }
}
