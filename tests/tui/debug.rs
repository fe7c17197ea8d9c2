//! The kernel-debugger views, driven through commands and drawn into a
//! test backend: the backtrace (live frames only), pt_regs at the current
//! trap frame, memory at `:x`, the stack, and `:watch`.

use std::path::Path;
use std::rc::Rc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use trapscope::isa::Op;
use trapscope::machine::{Program, decode_range};
use trapscope::scenario::Scenario;
use trapscope::tui::render;
use trapscope::tui::state::{AppState, Lower, Pane};
use trapscope::tui::update::Action;

fn app() -> AppState {
    let s = Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml"),
    )
    .unwrap();
    AppState::new(Rc::new(s), None).unwrap()
}

/// One pane drawn alone at `w`×`h`, its rows inside the border, trimmed.
fn pane(s: &AppState, p: Pane, w: u16, h: u16) -> Vec<String> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::draw_pane(f, f.area(), s, p)).unwrap();
    let buf = t.backend().buffer().clone();
    (1..h.saturating_sub(1))
        .map(|y| {
            (1..w.saturating_sub(1))
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect()
}

/// The pc of the first instruction in `func` that `is` picks.
fn find(p: &Program, func: &str, is: impl Fn(&trapscope::isa::Insn, u64) -> bool) -> u64 {
    let s = p.symbol(func).unwrap();
    let bytes = p.text_bytes(s.addr, s.size as usize).unwrap();
    decode_range(s.addr, bytes)
        .into_iter()
        .find(|d| d.insn.is_some_and(|i| is(&i, d.pc)))
        .unwrap_or_else(|| panic!("no such instruction in {func}"))
        .pc
}

fn call_to(p: &Program, target: &str) -> impl Fn(&trapscope::isa::Insn, u64) -> bool {
    let t = p.symbol(target).unwrap().addr;
    move |i, pc| i.op == Op::Jal && i.rd == 1 && pc.wrapping_add(i.imm as u64) == t
}

/// `sym+0xOFF file:line` as the backtrace prints a pc.
fn at(p: &Program, pc: u64) -> String {
    let l = p.loc_string(pc).unwrap();
    format!("{} {}", p.describe(pc), l.rsplit('/').next().unwrap())
}

/// A probe in sys_getppid, which do_trap_ecall_u calls after
/// syscall_enter_from_user_mode has returned (guest-asm/minikernel/
/// syscall.S): inside the probe's handler the backtrace has the live
/// frames only, innermost first, split at both traps.
#[test]
fn the_backtrace_at_a_probe_shows_only_live_frames() {
    let mut s = app();
    s.command("probe sys_getppid");
    s.command("break kprobe_breakpoint_handler");
    s.update(Action::Continue);
    let p = s.live.program().clone();
    let handler = p.symbol("kprobe_breakpoint_handler").unwrap().addr;
    assert_eq!(s.live.m.pc(), handler);
    s.lower = Lower::Backtrace;
    let rows = pane(&s, Pane::Backtrace, 60, 14);
    // The user side: the ecall in syscall(), called from main.
    let user_call = find(&p, "main", call_to(&p, "syscall"));
    let expect = [
        format!("#0 {}", at(&p, handler)),
        format!(
            "#1 {}",
            at(
                &p,
                find(
                    &p,
                    "do_trap_break",
                    call_to(&p, "kprobe_breakpoint_handler")
                )
            )
        ),
        "── breakpoint from S (scause 3) ──".to_string(),
        format!("#2 {}", at(&p, p.symbol("sys_getppid").unwrap().addr)),
        // `jalr a5` (rd = ra, rs1 = a5): the call through sys_call_table.
        format!(
            "#3 {}",
            at(
                &p,
                find(&p, "do_trap_ecall_u", |i, _| i.op == Op::Jalr
                    && i.rd == 1
                    && i.rs1 == 15)
            )
        ),
        "── ecall from U (scause 8) ──".to_string(),
        format!(
            "#4 {}",
            at(&p, p.symbol("user_syscall_ecall").unwrap().addr)
        ),
        format!("#5 {}", at(&p, user_call)),
    ];
    assert_eq!(&rows[..expect.len()], &expect[..], "{rows:#?}");
    // syscall_enter_from_user_mode returned before sys_getppid ran: it is
    // in neither the backtrace nor the Privilege & traps pane.
    let prv = pane(&s, Pane::Privilege, 60, 20);
    for l in rows.iter().chain(&prv) {
        assert!(
            !l.contains("syscall_enter_from_user_mode"),
            "{l}: {rows:#?} {prv:#?}"
        );
    }
    // Drawn at any size without a panic.
    for (w, h) in [(0, 0), (1, 1), (10, 3), (43, 5)] {
        pane(&s, Pane::Backtrace, w, h);
    }
}

/// pt_regs of the innermost trap (the probe's breakpoint from S), then,
/// once it returned, of the syscall's ecall.
#[test]
fn pt_regs_shows_the_current_trap_frame_decoded() {
    let mut s = app();
    s.command("probe sys_getppid");
    s.command("break kprobe_breakpoint_handler");
    s.update(Action::Continue);
    let p = s.live.program().clone();
    let rows = pane(&s, Pane::PtRegs, 45, 30);
    let all = rows.join("\n");
    // The breakpoint was taken at sys_getppid's first instruction, called
    // by do_trap_ecall_u's `jalr a5`: ra returns after it.
    assert!(rows.contains(&"epc     sys_getppid".to_string()), "{all}");
    assert!(rows.contains(&"cause   3 breakpoint".to_string()), "{all}");
    assert!(rows.iter().any(|l| l.starts_with("status  SPP=S")), "{all}");
    let jalr = find(&p, "do_trap_ecall_u", |i, _| {
        i.op == Op::Jalr && i.rd == 1 && i.rs1 == 15
    });
    let ra = format!("ra  {:016x}", jalr + 2); // c.jalr: 2 bytes
    assert!(rows.iter().any(|l| l.starts_with(&ra)), "{ra}\n{all}");
    // After the probe's trap returned and sys_getppid with it: the
    // syscall's frame, whose epc do_trap_ecall_u moved past the ecall (4
    // bytes) and whose a7 holds getppid's number (173, user.S).
    s.command("delete all");
    s.command("break syscall_exit_to_user_mode");
    s.update(Action::Continue);
    let rows = pane(&s, Pane::PtRegs, 45, 30);
    let all = rows.join("\n");
    let ecall = p.symbol("user_syscall_ecall").unwrap().addr;
    assert!(
        rows.contains(&format!("epc     {}", p.describe(ecall + 4))),
        "{all}"
    );
    assert!(
        rows.contains(&"cause   8 ecall from U-mode".to_string()),
        "{all}"
    );
    assert!(all.contains(&format!("a7  {:016x}", 173)), "{all}");
    for (w, h) in [(0, 0), (1, 1), (10, 3), (45, 5)] {
        pane(&s, Pane::PtRegs, w, h);
    }
}

#[test]
fn pt_regs_at_reset_says_there_is_no_trap_frame() {
    let s = app();
    let rows = pane(&s, Pane::PtRegs, 60, 6);
    assert!(rows[0].contains("no trap frame"), "{rows:#?}");
}

/// `:x task_bench 64` (kernel.S: TASK task_bench, ..., parent task_init,
/// stack bench_stack, comm "null_syscall"; offsets minikernel-defs.inc).
#[test]
fn x_shows_memory_with_symbols_and_pointers() {
    let mut s = app();
    s.command("x task_bench 72");
    assert_eq!(s.lower, Lower::Memory);
    let p = s.live.program().clone();
    let base = p.symbol("task_bench").unwrap().addr;
    let rows = pane(&s, Pane::Memory, 70, 14);
    let all = rows.join("\n");
    assert_eq!(rows[0], "<task_bench>", "{all}");
    let row = |off: u64| {
        rows.iter()
            .find(|l| l.starts_with(&format!("{:016x}", base + off)))
            .unwrap_or_else(|| panic!("no row +{off}: {all}"))
            .clone()
    };
    assert!(row(40).ends_with("→ task_init"), "{all}");
    assert!(row(48).ends_with("→ bench_stack"), "{all}");
    assert!(row(56).contains("null_sys"), "{all}");
    assert!(row(64).contains("call"), "{all}");
    // Scrolling the focused pane moves it a word a line.
    s.update(Action::Focus(Pane::Memory));
    s.update(Action::ScrollDown);
    assert_eq!(s.debug.memory, Some((base + 8, 72)));
    s.update(Action::ScrollUp);
    assert_eq!(s.debug.memory, Some((base, 72)));
    // An address nothing maps reads as such.
    s.command("x 0x10 16");
    let rows = pane(&s, Pane::Memory, 70, 6);
    assert!(rows[0].ends_with("not mapped"), "{rows:#?}");
    s.command("x nosuchsymbol");
    assert!(
        s.message
            .as_ref()
            .is_some_and(|(m, e)| *e && m.contains("nosuchsymbol"))
    );
    s.command("x task_bench lots");
    assert!(
        s.message
            .as_ref()
            .is_some_and(|(m, e)| *e && m.contains("lots"))
    );
}

#[test]
fn the_stack_view_marks_sp() {
    let mut s = app();
    s.command("break sys_getppid");
    s.update(Action::Continue);
    let sp = s.live.m.gpr(2);
    let rows = pane(&s, Pane::Stack, 70, 10);
    assert!(
        rows.iter()
            .any(|l| l.starts_with(&format!("▶{:016x}", sp & !7))),
        "{rows:#?}"
    );
    // In the 43 columns the layout gives the pane, addresses that share
    // their upper half show their lower 8 digits.
    let rows = pane(&s, Pane::Stack, 45, 10);
    assert!(
        rows.iter()
            .any(|l| l.starts_with(&format!("▶{:08x} ", sp & 0xffff_fff8))),
        "{rows:#?}"
    );
}

/// `:watch task_bench+24` (TASK_TI_USER_SP): `c` stops right after the
/// entry's `sd sp, TASK_TI_USER_SP(tp)`, and says who stored what.
#[test]
fn watch_stops_continue_after_the_store_and_names_it() {
    let mut s = app();
    s.command("watch task_bench+24");
    assert!(!s.message.as_ref().unwrap().1, "{:?}", s.message);
    let p = s.live.program().clone();
    s.update(Action::Continue);
    let (msg, err) = s.message.clone().unwrap();
    assert!(!err, "{msg}");
    let entry = if p
        .describe(s.live.m.pc())
        .starts_with("handle_exception_ras")
    {
        "handle_exception_ras"
    } else {
        "handle_exception"
    };
    let store = find(&p, entry, |i, _| {
        matches!(i.op, Op::Store { width: 8 }) && i.rs1 == 4 && i.rs2 == 2 && i.imm == 24
    });
    assert!(
        msg.starts_with(&format!(
            "watch 1: the store at {} wrote",
            p.describe(store)
        )),
        "{msg}"
    );
    assert!(msg.contains("to task_bench+0x18"), "{msg}");
    // Stopped after it: the pc is the next instruction.
    assert!(s.live.m.pc() > store && s.live.m.pc() <= store + 4);
    s.command("unwatch 1");
    assert!(s.debug.watches.is_empty());
    s.command("unwatch 1");
    assert!(s.message.as_ref().unwrap().1);
}

/// `c`, `:run N` and single steps stop at the same watch hit: the
/// message and the instruction count agree.
#[test]
fn continue_run_n_and_step_stop_at_the_same_watch_hit() {
    let mut s = app();
    s.command("watch task_bench+24");
    s.update(Action::Continue);
    let (msg, at) = (s.message.clone().unwrap().0, s.live.executed());
    assert!(msg.starts_with("watch 1:"), "{msg}");
    // Back before the store: one step makes it and stops with the same line.
    s.update(Action::StepBack);
    assert_eq!(s.live.executed(), at - 1);
    s.update(Action::Step);
    assert_eq!(
        (s.message.clone().unwrap().0, s.live.executed()),
        (msg.clone(), at)
    );
    // From the start, `:run` with room to spare stops there too.
    s.update(Action::Restart);
    s.command("run 10000000");
    assert_eq!((s.message.clone().unwrap().0, s.live.executed()), (msg, at));
    // Without the watch `c` runs on past it.
    s.update(Action::Restart);
    s.command("unwatch all");
    s.command("break sys_getppid");
    s.update(Action::Continue);
    assert!(s.live.executed() > at);
}
