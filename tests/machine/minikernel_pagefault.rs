//! Demand paging in minikernel-sv39.elf (guest-asm/minikernel/zz-pagefault.S,
//! scenarios/page-fault.toml): each page of the area takes exactly one store
//! page fault, served in do_page_fault's shape, the instruction count per
//! page is the file's hand count, and afterwards the page is mapped and holds
//! what the retried store wrote.

use std::path::Path;

use trapscope::machine::{Outcome, Until};
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts, VariantRun};
use trapscope::trace::{Event, Priv};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scenario() -> Scenario {
    Scenario::load(&root().join("scenarios/page-fault.toml")).unwrap()
}

/// include/minikernel-pagefault.inc: the area's first page, its size.
const AREA: u64 = 0x3f_0000_0000;
const AREA_PAGES: u64 = 128;
const PAGE: u64 = 4096;
/// The scenario's defaults: warm-up and timed pages.
const WARMUP: u64 = 10;
const ITERATIONS: u64 = 100;

/// Hand count per page (zz-pagefault.S's header, each function's linked
/// code; handle_exception and ret_from_exception are kernel.S's counts).
const HAND: [(&str, f64); 10] = [
    // addi; sd (faults); sd (again); add; bltu
    ("pf_user_start", 5.0),
    // 52 shared + the pre-seed-003 dispatch 12
    ("handle_exception", 64.0),
    // prologue 5, mv, jal, csrci, mv, jal, epilogue 5
    ("do_page_fault", 15.0),
    // prologue 6; mv; ld addr; ld, andi, bnez; andi, beqz, csrsi; la 2,
    // ld, bltu, ld, bgeu; ld, ld, li, andi, beq; beqz; mv, jal; andi,
    // bnez; epilogue 6
    ("handle_page_fault", 36.0),
    // prologue 4; counter 5; la root 2; two table steps of 9; slot 4;
    // ld, bnez; jal; epilogue 4
    ("handle_mm_fault", 40.0),
    // prologue 7; 3 mv; jal; beqz; mk_pte 8; counter 5; sd; sfence.vma;
    // li; epilogue 7
    ("do_anonymous_page", 35.0),
    // prologue 5; the pool 9 (la 2, ld, la 2, bgeu, lui, add, sd); mv,
    // jal, mv; epilogue 5
    ("vma_alloc_zeroed_movable_folio", 22.0),
    // lui, add; 64 x (8 sd + addi + bltu); ret: 4096 / 8 = 512 stores
    ("clear_page", 2.0 + 64.0 * 10.0 + 1.0),
    // prologue 5, mv, csrci, ld, andi, beqz, andi, beqz, epilogue 5
    ("irqentry_exit_to_user_mode", 17.0),
    // to U: 6 + 5 + 30 ld + ld sp + sret
    ("ret_from_exception", 43.0),
];

fn run(s: &Scenario, log: usize) -> VariantRun {
    let opts = RunOpts {
        log_events: log,
        ..RunOpts::default()
    };
    session::run_variant(s, s.variant("fault").unwrap(), &opts).unwrap()
}

#[test]
fn every_page_costs_the_hand_count() {
    let s = scenario();
    let r = run(&s, 0);
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    assert_eq!(r.iterations, ITERATIONS);
    assert_eq!(r.traps_per_iteration, 1.0);
    // The path, function by function, in the order each first ran.
    let got: Vec<(&str, f64)> = r
        .functions_per_iteration
        .iter()
        .map(|f| (f.name.as_str(), f.instructions))
        .collect();
    assert_eq!(got, HAND.to_vec());
    let total: f64 = HAND.iter().map(|h| h.1).sum();
    assert_eq!(total, 920.0);
    assert_eq!(r.insns_per_iteration["total"], total);
    for (phase, n) in [
        ("user", 5.0),
        ("entry", 64.0),
        ("fault", 15.0 + 36.0 + 40.0 + 35.0 + 22.0),
        ("zero", 643.0),
        ("exit", 17.0 + 43.0),
    ] {
        assert_eq!(r.insns_per_iteration[phase], n, "{phase}");
    }
    assert_eq!(r.results["page_faults"], (WARMUP + ITERATIONS) as f64);
    assert_eq!(r.results["anon_pages"], (WARMUP + ITERATIONS) as f64);
}

#[test]
fn each_page_takes_one_store_fault_through_do_page_fault() {
    let s = scenario();
    let p = s.variant("fault").unwrap().program.clone();
    let sym = |n: &str| p.symbol(n).unwrap().addr;
    let r = run(&s, 1_000_000);
    assert_eq!(r.exit_code, Some(0));
    assert_eq!(r.log_dropped, 0);
    let mut faults = Vec::new();
    let mut other = Vec::new();
    let entered = |n: &str| {
        r.log
            .iter()
            .filter(|e| matches!(e.event, Event::Retired { pc, .. } if pc == sym(n)))
            .count() as u64
    };
    let (dpf, hmf, clear) = (
        entered("do_page_fault"),
        entered("handle_mm_fault"),
        entered("clear_page"),
    );
    for e in r.log.iter() {
        if let Event::TrapEnter {
            cause,
            from,
            to,
            epc,
            tval,
            handler,
        } = e.event
        {
            if cause == 15 {
                assert_eq!((from, to), (Priv::U, Priv::S));
                assert_eq!(handler, sym("handle_exception"));
                faults.push((epc, tval));
            } else {
                other.push(cause);
            }
        }
    }
    // One store page fault per page, warm-up then timed, in address order,
    // stval = the page (the store writes at offset 0).
    let n = WARMUP + ITERATIONS;
    assert_eq!(faults.len() as u64, n);
    for (k, &(_, tval)) in faults.iter().enumerate() {
        assert_eq!(tval, AREA + k as u64 * PAGE, "fault {k}");
    }
    // The timed faults are all at the timed loop's store, right after its
    // two-byte c.addi; the warm-up ones at the warm-up loop's.
    let timed = &faults[WARMUP as usize..];
    assert!(timed.iter().all(|f| f.0 == sym("pf_timed_loop") + 2));
    assert!(faults[..WARMUP as usize].iter().all(|f| f.0 == faults[0].0));
    assert_ne!(faults[0].0, timed[0].0);
    // The only other traps: the exit syscall (8) and its SBI call (9).
    assert_eq!(other, vec![8, 9]);
    // Each fault runs the path once: no fault takes a second one.
    assert_eq!((dpf, hmf, clear), (n, n, n));
}

#[test]
fn after_the_loop_every_page_is_mapped_and_holds_its_store() {
    let s = scenario();
    let v = s.variant("fault").unwrap();
    let sym = |n: &str| v.program.symbol(n).unwrap().addr;
    let mut m = session::build_machine(&s, v, &RunOpts::default()).unwrap();
    let done = sym("pf_timed_done");
    let o = m.run(&Until {
        addrs: vec![done],
        max_insns: Some(1_000_000),
        ..Until::default()
    });
    assert_eq!(o, Outcome::ReachedAddr(done));
    assert_eq!(m.priv_(), Priv::U);
    let (pool, pte) = (sym("pf_pool"), sym("pf_pte"));
    for k in 0..WARMUP + ITERATIONS {
        let va = AREA + k * PAGE;
        let pa = pool + k * PAGE;
        // The page-table walk finds the k-th page of the pool, whose leaf
        // is U R W A D V (0xd7) over that page's number.
        assert_eq!(m.phys_of(va), Some(pa), "page {k}");
        let leaf = m.read_u64(pte + 8 * k).unwrap();
        assert_eq!(leaf, (pa >> 12) << 10 | 0xd7, "page {k}");
        // The retried store landed in RAM: the page's own address at
        // offset 0, zeros (clear_page) after it.
        let ram = m.read_phys(pa, PAGE as usize).unwrap();
        assert_eq!(ram[..8], va.to_le_bytes(), "page {k}");
        assert!(ram[8..].iter().all(|&b| b == 0), "page {k}");
        assert_eq!(m.read_u64(va), Some(va), "page {k}");
    }
    // The next page was never touched: no translation.
    assert_eq!(m.phys_of(AREA + (WARMUP + ITERATIONS) * PAGE), None);
}

/// Runs the scenario's program with `poke` applied to guest memory at
/// power-on (symbol, value), to its end.
fn outcome_with(poke: &[(&str, u64)], at_loop: bool) -> Outcome {
    let s = scenario();
    let v = s.variant("fault").unwrap();
    let sym = |n: &str| v.program.symbol(n).unwrap().addr;
    let mut m = session::build_machine(&s, v, &RunOpts::default()).unwrap();
    if at_loop {
        // Past boot, where pagefault_setup has filled in the vma.
        let top = sym("pf_timed_loop");
        let o = m.run(&Until {
            addrs: vec![top],
            max_insns: Some(1_000_000),
            ..Until::default()
        });
        assert_eq!(o, Outcome::ReachedAddr(top));
    }
    for (name, value) in poke {
        let (name, off) = name.split_once('+').unwrap_or((name, "0"));
        assert!(m.write_u64(sym(name) + off.parse::<u64>().unwrap(), *value));
    }
    m.run(&Until {
        max_insns: Some(2_000_000),
        ..Until::default()
    })
}

#[test]
fn a_store_outside_the_area_is_a_sigsegv() {
    // The vma shrunk to 20 pages: the 21st store has no vma (bad_area).
    let end = AREA + 20 * PAGE;
    assert_eq!(
        outcome_with(&[("pf_vma+8", end)], true),
        Outcome::Exited(128 + 11)
    );
}

#[test]
fn a_vma_without_write_permission_is_a_sigsegv() {
    // vm_flags = VM_READ: a store fails access_error (SEGV_ACCERR).
    assert_eq!(
        outcome_with(&[("pf_vma+24", 1)], true),
        Outcome::Exited(128 + 11)
    );
}

#[test]
fn an_empty_pool_is_vm_fault_oom_and_sigkill() {
    let s = scenario();
    let end = s.variant("fault").unwrap().program.symbol("pf_pool_end");
    let end = end.unwrap().addr;
    assert_eq!(
        outcome_with(&[("pf_pool_next", end)], true),
        Outcome::Exited(128 + 9)
    );
}

#[test]
fn more_pages_than_the_area_holds_are_refused_before_the_first_store() {
    // knob_warmup + knob_iterations > 128: exit(2) (the scenario's maxima
    // keep a run from asking; a guest poked directly still must refuse).
    for (warmup, iterations) in [(0, AREA_PAGES + 1), (AREA_PAGES + 1, 0), (29, 100)] {
        let o = outcome_with(
            &[("knob_warmup", warmup), ("knob_iterations", iterations)],
            false,
        );
        assert_eq!(o, Outcome::Exited(2), "{warmup} + {iterations}");
    }
    // Exactly the area fits.
    let o = outcome_with(&[("knob_warmup", 28), ("knob_iterations", 100)], false);
    assert_eq!(o, Outcome::Exited(0));
}

#[test]
fn without_the_knob_the_getppid_loop_runs_and_nothing_faults() {
    // knob_pagefault_bench = 0: user.S's program, as on every other
    // scenario; handle_mm_fault never runs.
    let s = scenario();
    let opts = RunOpts {
        set: [("pagefault_bench".to_string(), 0)].into_iter().collect(),
        ..RunOpts::default()
    };
    let r = session::run_variant(&s, s.variant("fault").unwrap(), &opts).unwrap();
    assert_eq!(r.exit_code, Some(0));
    assert_eq!(r.results["page_faults"], 0.0);
    assert_eq!(r.iterations, 0, "no pf_timed_loop ran");
}

#[test]
fn the_knob_on_the_build_without_paging_is_refused_at_load() {
    let err = Scenario::load(&root().join("tests/fixtures/pagefault_plain.toml"))
        .err()
        .unwrap();
    let text = err.to_string();
    assert!(text.contains("knob_pagefault_bench"), "{text}");
    assert!(text.contains("minikernel.elf does not have"), "{text}");
}

#[test]
fn without_the_knob_a_user_page_fault_is_a_sigsegv() {
    // No area without the benchmark (pf_vma stays empty): a store to an
    // unmapped user address is bad_area. The getppid loop's first
    // instruction becomes `sd zero, 0(zero)` (0x00003023): a store page
    // fault at address 0.
    let s = scenario();
    let v = s.variant("fault").unwrap();
    let opts = RunOpts {
        set: [("pagefault_bench".to_string(), 0)].into_iter().collect(),
        ..RunOpts::default()
    };
    let mut m = session::build_machine(&s, v, &opts).unwrap();
    let at = v.program.symbol("bench_timed_loop").unwrap().addr;
    let o = m.run(&Until {
        addrs: vec![at],
        max_insns: Some(1_000_000),
        ..Until::default()
    });
    assert_eq!(o, Outcome::ReachedAddr(at));
    let old = m.read_u64(at).unwrap();
    assert!(m.write_u64(at, (old & !0xffff_ffff) | 0x0000_3023));
    let o = m.run(&Until {
        max_insns: Some(1_000_000),
        ..Until::default()
    });
    // (Before zz-pagefault.S, do_page_fault ended the run with 0x100 | 15.)
    assert_eq!(o, Outcome::Exited(128 + 11));
}
