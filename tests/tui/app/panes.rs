//! What the panes show (split from app.rs, whose app and pane reader it
//! uses): every pane on the first screen, the ecall and entry code at the
//! first trap, the register a step wrote, the RAS pane's mispredicted return,
//! the privilege pane's call stack split at the trap, and the cycles pane's
//! pairs and variants.

use super::*;

#[test]
fn first_screen_shows_every_pane_at_the_reset_vector() {
    let mut s = app();
    let text = screen(&mut s, 160, 45);
    for title in [
        "fw.S:",
        "Registers",
        "CSRs",
        "Privilege & traps",
        "RAS",
        "Cycles",
        "Events",
    ] {
        assert!(text.contains(title), "no {title} pane:\n{text}");
    }
    // The hart starts in M-mode at _start, on the first line of fw.S's code.
    assert!(text.contains("M-mode"), "{text}");
    assert!(text.contains("minikernel/fw.S:"), "{text}");
    assert!(text.contains("before"), "{text}");
}

#[test]
fn run_to_the_first_trap_shows_the_ecall_and_the_entry_code() {
    let mut s = app();
    // Boot: mret to S (1st trap-return event), sret to U (2nd), then the ecall.
    s.update(Action::RunToTrap);
    s.update(Action::RunToTrap);
    s.update(Action::RunToTrap);
    assert_eq!(s.live.traps.len(), 1, "one trap open");
    let text = screen(&mut s, 160, 45);
    assert!(text.contains("S-mode"), "{text}");
    // The call stack, innermost first (guest-asm/minikernel/user.S, offsets
    // from `riscv64-linux-gnu-objdump -d assets/guest/minikernel.elf`): the
    // pc at stvec = handle_exception; the trap, taken at the `ecall` at
    // syscall+0xe (after its seven 2-byte `mv`s); then the user's frames:
    // `jal syscall` at main+0x3c returns to main+0x40, and `jal main` at
    // user_start+0x8 returns to user_start+0xc. The pane is 41 columns
    // inside, so the trap's place goes on a line of its own.
    assert_eq!(
        &pane(&text, "Privilege & traps")[..5],
        [
            "S-mode   handle_exception",
            "── trap: ecall from U (scause 8) ──",
            "at syscall+0xe",
            "main+0x40",
            "user_start+0xc",
        ],
        "{text}"
    );
    assert!(
        text.contains("8 ecall from U-mode"),
        "scause decoded:\n{text}"
    );
    assert!(text.contains("handle_exception"), "{text}");
    assert!(
        text.contains("include/minikernel-entry.inc"),
        "the entry's source:\n{text}"
    );
}

#[test]
fn step_marks_the_written_register_and_step_back_undoes_it() {
    let mut s = app();
    let pc0 = s.live.m.pc();
    // _start: `la sp, fw_stack_top` = auipc sp + addi sp: the first step writes sp (x2).
    s.update(Action::Step);
    assert_eq!(s.live.changed, 1 << 2);
    assert_eq!(s.live.executed(), 1);
    s.update(Action::StepBack);
    assert_eq!(s.live.executed(), 0);
    assert_eq!(s.live.m.pc(), pc0);
}

#[test]
fn the_ras_pane_shows_the_mispredicted_return_of_the_old_entry() {
    let mut s = app();
    // Stop right after `jr t0` in handle_exception (before seed 003): it pops
    // the user's return address but goes to do_trap_ecall_u.
    s.command("break do_trap_ecall_u");
    s.update(Action::Continue);
    let text = screen(&mut s, 160, 45);
    assert!(text.contains("✗ mispredict"), "{text}");
    // It predicted the return address `call syscall` pushed in main.
    assert!(text.contains("predicted main+"), "{text}");
    assert!(text.contains("went to   do_trap_ecall_u"), "{text}");
}

#[test]
fn the_privilege_pane_shows_the_call_stack_split_at_the_trap() {
    // At the first sys_getppid, before seed 003 (guest-asm/minikernel/
    // syscall.S, include/minikernel-entry.inc; offsets by objdump): the pc;
    // `jalr a5` at do_trap_ecall_u+0x46 (2 bytes) returns to +0x48;
    // do_trap_ecall_u has no frame, for handle_exception reached it with
    // `jr t0` at handle_exception+0xba, a return that matched no call; the
    // trap at syscall+0xe; the user's frames as at the trap. With the
    // patch, `jalr t1` at handle_exception_ras+0xb6 adds a frame that
    // returns to +0xb8.
    let mut s = app();
    s.command("break sys_getppid");
    s.update(Action::Continue);
    let text = screen(&mut s, 160, 45);
    assert_eq!(
        &pane(&text, "Privilege & traps")[..8],
        [
            "S-mode   sys_getppid",
            "do_trap_ecall_u+0x48",
            "── trap: ecall from U (scause 8) ──",
            "at syscall+0xe",
            "main+0x40",
            "user_start+0xc",
            // Only live frames: the count of mismatched returns, no name.
            "mismatched returns so far: 1",
            "",
        ],
        "{text}"
    );
    s.update(Action::SwitchVariant);
    let text = screen(&mut s, 160, 45);
    assert_eq!(
        &pane(&text, "Privilege & traps")[..7],
        [
            "S-mode   sys_getppid",
            "do_trap_ecall_u+0x48",
            "handle_exception_ras+0xb8",
            "── trap: ecall from U (scause 8) ──",
            "at syscall+0xe",
            "main+0x40",
            "user_start+0xc",
        ],
        "{text}"
    );
    // On a pane too short for the stack, the innermost lines stay and the
    // rest is counted (here 3 rows inside: 2 of the after variant's 7
    // lines above, then "… 5 more"); nothing panics at any size down to
    // nothing.
    let mut t = Terminal::new(TestBackend::new(43, 5)).unwrap();
    t.draw(|f| trapscope::tui::render::draw_pane(f, f.area(), &s, Pane::Privilege))
        .unwrap();
    let buf = t.backend().buffer().clone();
    let row = |y: u16| -> String { (0..43).map(|x| buf[(x, y)].symbol()).collect() };
    assert!(row(1).contains("sys_getppid"), "{}", row(1));
    assert!(row(2).contains("do_trap_ecall_u+0x48"), "{}", row(2));
    assert!(row(3).contains("… 5 more lines"), "{}", row(3));
    for (w, h) in [(0, 0), (1, 1), (3, 2), (10, 3), (43, 1)] {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| trapscope::tui::render::draw_pane(f, f.area(), &s, Pane::Privilege))
            .unwrap();
    }
}

#[test]
fn the_cycles_pane_shows_each_pair_as_after_minus_before() {
    // vstate-initial.toml declares four pairs; the V=0 one is asked too.
    let sc = Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/vstate-initial.toml"),
    )
    .unwrap();
    let s = AppState::new(Rc::new(sc), None).unwrap();
    // The pane alone, tall and wide enough for six variants and four pairs
    // on a line each (the layout gives it less; the paragraph wraps).
    let mut t = Terminal::new(TestBackend::new(70, 40)).unwrap();
    t.draw(|f| render::draw_pane(f, f.area(), &s, Pane::Cycles))
        .unwrap();
    let buf = t.backend().buffer().clone();
    let text: String = (0..40)
        .map(|y| (0..70).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect();
    let rows = pane(&text, "Cycles");
    let per_it = |v: &str| -> f64 {
        rows.iter()
            .find_map(|r| {
                let w: Vec<&str> = r.trim_start_matches('▶').split_whitespace().collect();
                (w.first() == Some(&v)).then(|| w[1].parse().unwrap())
            })
            .unwrap_or_else(|| panic!("no {v}: {rows:#?}"))
    };
    let line_of = |v: &str| -> Vec<String> {
        rows.iter()
            .map(|r| {
                // The figure's band, "(low..high)", follows it.
                r.trim_start_matches('▶')
                    .split_whitespace()
                    .filter(|x| !x.starts_with('('))
                    .map(String::from)
                    .collect::<Vec<_>>()
            })
            .find(|w| w.first().map(String::as_str) == Some(v))
            .unwrap_or_else(|| panic!("no {v}: {rows:#?}"))
    };
    for (b, a) in [
        ("base_v1", "v3_v1"),
        ("v3_v1", "fix_v1"),
        ("base_v0", "v3_v0"),
        ("v3_v0", "fix_v0"),
    ] {
        // Each pair's `after` line reports it: "v3_v1  334.0  +11.0 +6.3 ns",
        // the cycles being the difference of the two variants' figures (to
        // rounding), taken against the pair's before (fix_v1 against v3_v1,
        // not against the first variant).
        let own = line_of(a);
        let d: f64 = own[2].parse().unwrap_or_else(|_| panic!("{own:?}"));
        assert!((d - (per_it(a) - per_it(b))).abs() <= 0.1 + 1e-9, "{own:?}");
        assert_eq!(own.get(4).map(String::as_str), Some("ns"), "{own:?}");
    }
    // Every pair has its own after's line: no other pairs to list.
    assert!(!rows.iter().any(|r| r.contains("other pairs")), "{rows:#?}");
    // base_v0 is no pair's after: no difference on its line.
    let base_v0 = rows.iter().find(|r| r.starts_with("base_v0")).unwrap();
    let words = base_v0.split_whitespace().filter(|x| !x.starts_with('('));
    assert_eq!(words.count(), 2, "{base_v0}");
}

#[test]
fn at_160x45_the_cycles_pane_shows_every_variant_of_vstate_initial() {
    // Six variants, each the after of at most one pair (four pairs): in the
    // real layout at the size bench measures, every variant line shows,
    // whatever else the pane has to give up (sparkline, cause, phases).
    let sc = Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/vstate-initial.toml"),
    )
    .unwrap();
    let mut s = AppState::new(Rc::new(sc), None).unwrap();
    let text = screen(&mut s, 160, 45);
    let rows = pane(&text, "Cycles");
    for v in ["base_v1", "v3_v1", "fix_v1", "base_v0", "v3_v0", "fix_v0"] {
        assert!(
            rows.iter()
                .any(|r| r.trim_start_matches('▶').split_whitespace().next() == Some(v)),
            "{v} missing: {rows:#?}"
        );
    }
}
