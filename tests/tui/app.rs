//! The TUI, driven through actions and drawn into a test backend: what the
//! user sees after each key (docs/decisions.md C6).

use crate::common;
use common::tui::screen;

use std::path::Path;
use std::rc::Rc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use trapscope::scenario::Scenario;
use trapscope::tui::render;
use trapscope::tui::state::{AppState, Mode, Pane};
use trapscope::tui::update::Action;

fn app() -> AppState {
    common::tui::app_at("scenarios/ras-trap-entry.toml", None)
}

/// The rows inside the pane titled `title`, trimmed, up to its bottom.
fn pane(text: &str, title: &str) -> Vec<String> {
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let head = format!("┌ {title}");
    let (r, c) = rows
        .iter()
        .enumerate()
        .find_map(|(r, row)| {
            let s: String = row.iter().collect();
            s.find(&head).map(|b| (r, s[..b].chars().count()))
        })
        .unwrap_or_else(|| panic!("no pane {title}:\n{text}"));
    let end = (c + 1..rows[r].len()).find(|&x| rows[r][x] == '┐').unwrap();
    rows[r + 1..]
        .iter()
        .take_while(|row| row[c] != '└')
        .map(|row| {
            row[c + 1..end]
                .iter()
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect()
}

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
fn tab_keeps_the_iteration_and_event() {
    let mut s = app();
    s.command("break sys_getppid");
    s.update(Action::Continue);
    let pc = s.live.m.pc();
    s.update(Action::SwitchVariant);
    assert_eq!(s.variant_name(), "after");
    assert_eq!(s.live.m.pc(), pc, "same place in the shared syscall code");
    assert_eq!(s.live.traps.len(), 1);
}

#[test]
fn commands_report_errors_in_the_status_line() {
    let mut s = app();
    s.command("break no_such_symbol");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("no_such_symbol")));
    s.command("set nope=1");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("unknown knob 'nope'")));
    s.command("core pentium");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("unknown core")));
    s.command("frobnicate");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("unknown command")));
    s.command("run 10");
    assert_eq!(s.live.executed(), 10);
}

#[test]
fn typing_a_command_goes_through_the_command_line() {
    let mut s = app();
    s.update(Action::CommandStart);
    for c in "run 5".chars() {
        s.update(Action::Input(c));
    }
    assert_eq!(s.mode, Mode::Command("run 5".into()));
    let text = screen(&mut s, 160, 45);
    assert!(text.contains(":run 5"), "{text}");
    s.update(Action::Submit);
    assert_eq!(s.live.executed(), 5);
    assert_eq!(s.mode, Mode::Normal);
}

#[test]
fn a_tiny_terminal_says_how_big_it_must_be() {
    let mut s = app();
    let text = screen(&mut s, 80, 24);
    assert!(text.contains("at least 100×30"), "{text}");
    assert!(text.contains("80×24"), "{text}");
}

#[test]
fn help_lists_every_key_of_the_keymap() {
    let mut s = app();
    s.update(Action::Help);
    let text = screen(&mut s, 160, 45);
    for (k, what) in [
        ("s", "step one instruction"),
        ("Tab", "switch variant"),
        ("B", "reverse-continue"),
        ("q", "quit"),
    ] {
        assert!(text.contains(what), "help lacks {k}:\n{text}");
    }
    assert!(text.contains("break SYM|SYM+0xOFF|FILE:LINE"), "{text}");
    s.update(Action::Step); // any key closes it
    assert_eq!(s.mode, Mode::Normal);
    assert_eq!(
        s.live.executed(),
        0,
        "the key that closes help does nothing else"
    );
}

#[test]
fn the_lesson_plays_step_by_step_and_highlights_panes() {
    let mut s = app();
    assert!(
        !s.player.steps.is_empty(),
        "ras-trap-entry has a [[script]]"
    );
    s.update(Action::Advance);
    assert_eq!(s.player.next, 1);
    let step = &s.player.steps[0];
    assert_eq!(s.narration.as_deref(), Some(step.say.as_str()));
    if let Some(h) = &step.highlight {
        assert_eq!(s.highlight, Pane::parse(h));
    }
}

#[test]
fn reverse_continue_goes_back_to_the_previous_breakpoint_hit() {
    let mut s = app();
    s.command("break sys_getppid");
    s.update(Action::Continue);
    let first = s.live.executed();
    s.update(Action::Step);
    s.update(Action::Continue);
    let second = s.live.executed();
    assert!(second > first);
    s.update(Action::ReverseContinue);
    assert_eq!(s.live.executed(), first);
}

#[test]
fn every_lesson_replays_headless() {
    // Every shipped scenario that has a lesson.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lessons: Vec<String> = std::fs::read_dir(root.join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("\n[[script]]"))
        .map(|p| format!("scenarios/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    lessons.sort();
    assert!(lessons.len() >= 3, "{lessons:?}");
    for scenario in &lessons {
        let scenario = scenario.as_str();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["run", "--script", scenario])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{scenario}: {text}");
        assert!(text.contains(" 0 failed"), "{text}");
    }
}

#[test]
fn without_a_terminal_the_tui_says_so() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the TUI needs a terminal"), "{err}");
}

#[test]
fn tab_in_the_timed_loop_lands_in_the_same_iteration() {
    let mut s = app();
    s.command("break sys_getppid");
    // 10 warm-up calls, then 3 timed ones: the 13th stop is in iteration 3.
    for _ in 0..13 {
        s.update(Action::Continue);
    }
    assert_eq!(s.live.stats().iteration_hits, 3);
    let pc = s.live.m.pc();
    s.update(Action::SwitchVariant);
    assert_eq!(s.variant_name(), "after");
    assert_eq!(s.live.stats().iteration_hits, 3);
    assert_eq!(s.live.m.pc(), pc);
}

fn app_of(scenario: &str) -> AppState {
    common::tui::app_at(scenario, None)
}

#[test]
fn atomics_scenarios_open_on_the_reservation_pane_with_the_amo_policy() {
    let mut s = app_of("scenarios/zalrsc-atomics.toml");
    let text = screen(&mut s, 160, 45);
    assert!(text.contains("LR/SC reservation"), "{text}");
    // The scenario's first core is the P8700, whose profile traps AMOs.
    assert!(text.contains("trapped to M-mode firmware"), "{text}");
}

#[test]
fn a_breakpoint_inside_an_lr_sc_sequence_warns_and_a_probe_is_rejected() {
    let mut s = app_of("scenarios/zalrsc-atomics.toml");
    s.command("break cmpxchg_probe_site");
    assert!(
        matches!(&s.message, Some((m, true)) if m.contains("inside the LR/SC sequence") && m.contains(":probe!")),
        "{:?}",
        s.message
    );
    s.command("probe cmpxchg_probe_site");
    assert!(
        matches!(&s.message, Some((m, true)) if m.starts_with("probe rejected")),
        "{:?}",
        s.message
    );
    assert!(s.probes.is_empty());
    // Outside any sequence, a probe is fine.
    s.command("probe sys_atomics_wake");
    assert!(matches!(&s.message, Some((_, false))), "{:?}", s.message);
    assert_eq!(s.probes.len(), 1);
}

#[test]
fn placing_the_probe_anyway_shows_the_livelock() {
    let mut s = app_of("scenarios/probe-in-lrsc.toml");
    s.update(Action::Continue);
    assert!(
        matches!(&s.message, Some((m, true)) if m.contains("livelock")),
        "{:?}",
        s.message
    );
    let text = screen(&mut s, 160, 45);
    assert!(
        text.contains("cmpxchg_probe_site (rejected") && text.contains("placed anyway"),
        "{text}"
    );
    assert!(text.contains("last sc  arch_cmpxchg+0x8 fails"), "{text}");
}

#[test]
fn a_terminal_too_small_for_the_panes_takes_only_quit() {
    use trapscope::tui::acts_at;
    assert!(!acts_at(&Action::Step, 30, 8));
    assert!(!acts_at(&Action::Advance, 99, 45));
    assert!(!acts_at(&Action::Advance, 120, 29));
    assert!(acts_at(&Action::Quit, 30, 8));
    assert!(acts_at(
        &Action::Step,
        render::MIN_WIDTH,
        render::MIN_HEIGHT
    ));
}

#[test]
fn restart_starts_the_lesson_over_and_a_scenario_without_one_says_so() {
    let mut s = app();
    s.update(Action::Advance);
    s.update(Action::Advance);
    assert_eq!(s.player.next, 2);
    // r: back to the lesson's start, which is where its first step arrives.
    s.update(Action::Restart);
    assert_eq!(s.player.next, 1);
    assert!(s.player.active);
    // R: power-on, the lesson not begun.
    s.update(Action::Reset);
    assert_eq!(s.player.next, 0);
    assert!(!s.player.active);
    assert_eq!(s.live.executed(), 0);
    let dir = std::env::temp_dir().join(format!("trapscope-nolesson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let elf = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel.elf");
    let p = dir.join("no-lesson.toml");
    std::fs::write(
        &p,
        format!(
            "title = \"t\"\npatch = \"p\"\nelf = \"{}\"\n[[variants]]\nname = \"only\"\n",
            elf.display()
        ),
    )
    .unwrap();
    let mut z = AppState::new(Rc::new(Scenario::load(&p).unwrap()), None).unwrap();
    z.update(Action::Advance);
    let (msg, _) = z.message.clone().unwrap();
    assert!(msg.contains("has no lesson"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two builds of one kernel put the same function at different addresses
/// (the Sv39 build of the minikernel has its paging set-up before the
/// syscall code: sys_getppid is at 0x8020050a in one, 0x802005f4 in the
/// other, `nm`). Tab lands at the same function and offset, not the same pc.
#[test]
fn tab_between_two_builds_finds_the_same_function_and_offset() {
    let dir = std::env::temp_dir().join(format!("trapscope-tab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let guest = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest");
    let toml = format!(
        "title = \"t\"\npatch = \"p\"\n[[variants]]\nname = \"plain\"\nelf = \"{}\"\n[[variants]]\nname = \"sv39\"\nelf = \"{}\"\n",
        guest.join("minikernel.elf").display(),
        guest.join("minikernel-sv39.elf").display()
    );
    let p = dir.join("two-builds.toml");
    std::fs::write(&p, toml).unwrap();
    let mut s = AppState::new(Rc::new(Scenario::load(&p).unwrap()), None).unwrap();
    s.command("break sys_getppid");
    s.update(Action::Continue);
    s.update(Action::Step);
    s.update(Action::Step);
    let here = s.live.program().describe(s.live.m.pc());
    assert_eq!(here, "sys_getppid+0x4", "two 2-byte steps into it");
    let before = s.live.m.pc();
    let plain_sources = s.sources.clone();
    s.update(Action::SwitchVariant);
    assert_eq!(s.variant_name(), "sv39");
    assert_eq!(s.live.program().describe(s.live.m.pc()), here);
    assert_ne!(s.live.m.pc(), before, "another address in the other build");
    // Its own sources (another build may have another tree) and the
    // breakpoint at its own sys_getppid.
    assert!(!Rc::ptr_eq(&plain_sources, &s.sources));
    let bp = s.live.program().symbol("sys_getppid").unwrap().addr;
    assert!(s.breakpoints.contains(&bp), "{:x?}", s.breakpoints);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Space after the guest ended does not narrate a step that cannot run.
#[test]
fn the_lesson_does_not_advance_past_the_guests_end() {
    let mut s = app();
    for _ in 0..50 {
        if s.live.m.exit_code().is_some() {
            break;
        }
        s.update(Action::Continue);
    }
    assert!(s.live.m.exit_code().is_some(), "the guest ran to its end");
    let before = s.player.next;
    s.update(Action::Advance);
    assert_eq!(s.player.next, before, "no step taken");
    let msg = s.message.as_ref().map(|m| m.0.clone()).unwrap_or_default();
    assert!(msg.contains("the guest has ended"), "{msg}");
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
                r.trim_start_matches('▶')
                    .split_whitespace()
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
    assert_eq!(base_v0.split_whitespace().count(), 2, "{base_v0}");
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

#[test]
fn break_takes_sym_plus_offset_and_file_line() {
    let mut s = app();
    let p = s.live.program().clone();
    let entry = p.symbol("do_trap_ecall_u").unwrap().addr;
    // The form every pane prints: the symbol's address plus 4.
    s.command("break do_trap_ecall_u+0x4");
    assert!(s.breakpoints.contains(&(entry + 4)), "{:?}", s.message);
    // syscall.S line 24 is do_trap_ecall_u's first instruction (the label
    // is on line 23 of guest-asm/minikernel/syscall.S).
    s.command("break syscall.S:24");
    assert!(s.breakpoints.contains(&entry), "{:?}", s.message);
    s.command("break minikernel/syscall.S:24");
    assert!(s.breakpoints.contains(&entry), "{:?}", s.message);
    // Errors say what is wrong.
    s.command("break syscall.S:x");
    assert!(
        matches!(&s.message, Some((m, true)) if m.contains("line number")),
        "{:?}",
        s.message
    );
    s.command("break nosuch.S:3");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("no source file 'nosuch.S'")));
    s.command("break nope+0x4");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("no symbol 'nope'")));
    s.command("delete do_trap_ecall_u+4");
    assert!(!s.breakpoints.contains(&(entry + 4)), "decimal offsets too");
}
