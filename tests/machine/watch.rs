//! Watchpoints (machine::watch): a run stops right after the instruction
//! whose load or store touched a watched range of physical memory, in
//! block mode and when stepping alike, and every virtual alias hits.

use std::path::Path;
use std::rc::Rc;

use trapscope::isa::Op;
use trapscope::machine::{
    Machine, NoObserver, Outcome, Program, Until, Watch, WatchAccess, WatchHit, decode_range,
};
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs on until something other than a completed step: by blocks, or one
/// instruction at a time.
fn go<O: trapscope::machine::Observer>(m: &mut Machine<O>, stepping: bool) -> Outcome {
    if !stepping {
        return m.run(&Until {
            max_insns: Some(1_000_000),
            ..Until::default()
        });
    }
    for _ in 0..1_000_000 {
        match m.step() {
            Outcome::Stepped => {}
            o => return o,
        }
    }
    Outcome::Budget
}

fn hit(o: Outcome) -> WatchHit {
    match o {
        Outcome::Watch(h) => h,
        o => panic!("expected a watch hit, got {o:?}"),
    }
}

/// guest-asm/tests/watch_alias.S: a store through the identity map, a load
/// and a store through the alias, each stopping right after itself.
#[test]
fn accesses_through_an_alias_hit_a_watch_on_the_physical_address() {
    let p = Rc::new(Program::load(&root().join("assets/guest/tests/watch_alias.elf")).unwrap());
    let sym = |n: &str| p.symbol(n).unwrap().addr;
    let cell = sym("cell");
    // watch_alias.S: ALIAS = VA 0xc000_0000 - VA 0x8000_0000.
    let alias = cell + 0x4000_0000;
    let mut seen = Vec::new();
    for stepping in [false, true] {
        let mut m = Machine::new(p.clone(), NoObserver).unwrap();
        m.set_watches(&[Watch { phys: cell, len: 8 }]);
        let mut got = Vec::new();
        for (pc, access, vaddr, value) in [
            (sym("watch_store"), WatchAccess::Store, cell, 7),
            (sym("watch_load"), WatchAccess::Load, alias, 7),
            (sym("watch_alias_store"), WatchAccess::Store, alias, 9),
        ] {
            let h = hit(go(&mut m, stepping));
            assert_eq!(
                (h.pc, h.access, h.vaddr, h.paddr, h.size, h.value, h.watch),
                (pc, access, vaddr, cell, 8, value, 0),
                "stepping {stepping}"
            );
            // Stopped after the access: each is a 4-byte sd/ld.
            assert_eq!(m.pc(), pc + 4, "stepping {stepping}");
            got.push((m.executed(), h));
        }
        // Back in M-mode (paging off) test_main loads `cell` for its check.
        let h = hit(go(&mut m, stepping));
        assert_eq!((h.access, h.vaddr, h.value), (WatchAccess::Load, cell, 9));
        assert_eq!(p.symbol_at(h.pc).unwrap().0.name, "test_main");
        // The guest's own checks (the load read 7, cell ends at 9) pass:
        // no access was lost or repeated by stopping.
        assert_eq!(go(&mut m, stepping), Outcome::Exited(0));
        seen.push(got);
    }
    assert_eq!(seen[0], seen[1], "block mode and stepping stop alike");
    // The status line: data by symbol where one holds it, the alias (no
    // symbol there) by address, with the physical address it reached.
    assert_eq!(
        seen[0][0].1.describe(&p),
        format!(
            "watch 1: the store at {} wrote 0x7 to cell ({cell:#x}, 8 bytes)",
            p.describe(sym("watch_store"))
        )
    );
    assert_eq!(
        seen[0][1].1.describe(&p),
        format!(
            "watch 1: the load at {} read 0x7 from {alias:#x} (physical {cell:#x}, 8 bytes)",
            p.describe(sym("watch_load"))
        )
    );
}

#[test]
fn without_a_watch_nothing_stops_and_a_watch_elsewhere_does_not_hit() {
    let p = Rc::new(Program::load(&root().join("assets/guest/tests/watch_alias.elf")).unwrap());
    let cell = p.symbol("cell").unwrap().addr;
    let mut m = Machine::new(p.clone(), NoObserver).unwrap();
    assert_eq!(go(&mut m, false), Outcome::Exited(0));
    let mut m = Machine::new(p.clone(), NoObserver).unwrap();
    // The 8 bytes just past `cell`: nothing the guest touches after boot.
    m.set_watches(&[Watch {
        phys: cell + 8,
        len: 8,
    }]);
    assert_eq!(go(&mut m, false), Outcome::Exited(0));
}

/// The first instruction of `func` that `is` picks, from the ELF's bytes.
fn find(p: &Program, func: &str, is: impl Fn(&trapscope::isa::Insn) -> bool) -> u64 {
    let s = p.symbol(func).unwrap();
    let bytes = p.text_bytes(s.addr, s.size as usize).unwrap();
    decode_range(s.addr, bytes)
        .into_iter()
        .find(|d| d.insn.is_some_and(|i| is(&i)))
        .unwrap_or_else(|| panic!("no such instruction in {func}"))
        .pc
}

/// In the minikernel, the task's parked user sp (TASK_TI_USER_SP = 24,
/// minikernel-defs.inc): handle_exception stores sp there (`sd sp,
/// TASK_TI_USER_SP(tp)`) and loads it back into s0 for pt_regs->sp.
#[test]
fn the_minikernel_entry_stores_and_loads_the_watched_user_sp() {
    let s = Scenario::load(&root().join("scenarios/ras-trap-entry.toml")).unwrap();
    let v = &s.variants[0];
    let p = v.program.clone();
    let entry = ["handle_exception", "handle_exception_ras"].map(|n| p.symbol(n).unwrap().addr);
    let mut seen = Vec::new();
    for stepping in [false, true] {
        let mut m = session::build_machine(&s, v, &RunOpts::default()).unwrap();
        let o = m.run(&Until {
            max_insns: Some(1_000_000),
            addrs: entry.to_vec(),
            ..Until::default()
        });
        let at = m.pc();
        assert_eq!(o, Outcome::ReachedAddr(at));
        let func = if at == entry[0] {
            "handle_exception"
        } else {
            "handle_exception_ras"
        };
        // From U: sscratch holds the task (entry.S).
        let task = m.csr(0x140).unwrap();
        assert_ne!(task, 0);
        let user_sp = m.gpr(2);
        m.set_watches(&[Watch {
            phys: m.phys_of(task + 24).unwrap(),
            len: 8,
        }]);
        let store = find(&p, func, |i| {
            matches!(i.op, Op::Store { width: 8 }) && i.rs1 == 4 && i.rs2 == 2 && i.imm == 24
        });
        let load = find(&p, func, |i| {
            matches!(i.op, Op::Load { width: 8, .. }) && i.rs1 == 4 && i.rd == 8 && i.imm == 24
        });
        let h = hit(go(&mut m, stepping));
        assert_eq!(
            (h.pc, h.access, h.vaddr, h.value),
            (store, WatchAccess::Store, task + 24, user_sp)
        );
        let after_store = m.pc();
        let h2 = hit(go(&mut m, stepping));
        assert_eq!(
            (h2.pc, h2.access, h2.vaddr, h2.value),
            (load, WatchAccess::Load, task + 24, user_sp)
        );
        // The load put the value where the code says (s0).
        assert_eq!(m.gpr(8), user_sp);
        seen.push((after_store, m.executed(), m.pc()));
    }
    assert_eq!(seen[0], seen[1]);
}

/// guest-asm/tests/sv39.S: `sv39_data` read through a read-only alias
/// (`ld a1`), a store through it that page-faults (`s_sd`: no access, so
/// no hit), an `lr.d` through it (emulated by trapscope: its hook checks
/// the watch too), then test_main's own load of it with paging off.
#[test]
fn a_faulting_store_is_no_hit_and_an_emulated_lr_is_one() {
    let p = Rc::new(Program::load(&root().join("assets/guest/tests/sv39.elf")).unwrap());
    let sym = |n: &str| p.symbol(n).unwrap().addr;
    let data = sym("sv39_data");
    // sv39.S: ALIAS = VA 0xc000_0000 - PA 0x8000_0000, MAGIC = 0x1234abcd.
    let alias = data + 0x4000_0000;
    let ld_a1 = find(&p, "s_code", |i| {
        matches!(i.op, Op::Load { width: 8, .. }) && i.rd == 11
    });
    let lr_a3 = find(&p, "s_code", |i| {
        matches!(i.op, Op::Lr { .. }) && i.rd == 13
    });
    for stepping in [false, true] {
        let mut m = Machine::new(p.clone(), NoObserver).unwrap();
        m.set_watches(&[Watch { phys: data, len: 8 }]);
        let mut got = Vec::new();
        for _ in 0..3 {
            let h = hit(go(&mut m, stepping));
            got.push((h.pc, h.access, h.vaddr, h.paddr, h.value));
        }
        let in_main = got[2].0;
        assert_eq!(p.symbol_at(in_main).unwrap().0.name, "test_main");
        assert_eq!(
            got,
            [
                (ld_a1, WatchAccess::Load, alias, data, 0x1234abcd),
                (lr_a3, WatchAccess::Load, alias, data, 0x1234abcd),
                (in_main, WatchAccess::Load, data, data, 0x1234abcd),
            ],
            "stepping {stepping}"
        );
        assert_eq!(go(&mut m, stepping), Outcome::Exited(0));
    }
}

/// A breakpoint on the watched store itself: the run stops before it
/// (the breakpoint), then after it (the watch), and the next time the
/// entry runs it stops at the breakpoint again, not passing it (whichever
/// of the two hooks unicorn calls first).
#[test]
fn a_breakpoint_on_the_watched_instruction_still_stops_the_next_time() {
    let s = Scenario::load(&root().join("scenarios/ras-trap-entry.toml")).unwrap();
    let v = &s.variants[0];
    let p = v.program.clone();
    let func = "handle_exception";
    let store = find(&p, func, |i| {
        matches!(i.op, Op::Store { width: 8 }) && i.rs1 == 4 && i.rs2 == 2 && i.imm == 24
    });
    let task = p.symbol("task_bench").unwrap().addr;
    for stepping in [false, true] {
        let mut m = session::build_machine(&s, v, &RunOpts::default()).unwrap();
        m.set_watches(&[Watch {
            phys: task + 24,
            len: 8,
        }]);
        let until = Until {
            max_insns: Some(1_000_000),
            addrs: vec![store],
            ..Until::default()
        };
        let run = |m: &mut Machine<_>| {
            if !stepping {
                return m.run(&until);
            }
            // Stepping: a breakpoint is the pc reaching it.
            loop {
                match m.step() {
                    Outcome::Stepped if m.pc() == store => return Outcome::ReachedAddr(store),
                    Outcome::Stepped => {}
                    o => return o,
                }
            }
        };
        assert_eq!(
            run(&mut m),
            Outcome::ReachedAddr(store),
            "stepping {stepping}"
        );
        let first = m.executed();
        assert_eq!(hit(run(&mut m)).pc, store, "stepping {stepping}");
        assert_eq!(m.executed(), first + 1);
        // The entry loads the word back further on (the test above).
        assert_eq!(hit(run(&mut m)).access, WatchAccess::Load);
        assert_eq!(
            run(&mut m),
            Outcome::ReachedAddr(store),
            "stepping {stepping}"
        );
        assert!(m.executed() > first + 1);
    }
}
