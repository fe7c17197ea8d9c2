//! Instructions and cycles per function symbol (`functions_per_iteration`)
//! on the ras-trap-entry scenario, checked against hand counts of the
//! minikernel's getppid path (guest-asm/minikernel/*.S), and the functions
//! `compare` says the seed-003 patch moved work in.

use std::path::Path;
use std::rc::Rc;

use trapscope::cost::Profile;
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts, VariantRun};

fn scenario() -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml"))
        .unwrap()
}

fn run(s: &Scenario, v: &str, core: Option<&str>, step: bool) -> VariantRun {
    let opts = RunOpts {
        core: core.map(|c| Rc::new(Profile::find(c).unwrap())),
        single_step: step,
        ..RunOpts::default()
    };
    session::run_variant(s, s.variant(v).unwrap(), &opts).unwrap()
}

fn insns(r: &VariantRun, name: &str) -> Option<f64> {
    r.functions_per_iteration
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.instructions)
}

#[test]
fn the_getppid_path_per_function_matches_the_hand_count() {
    let s = scenario();
    for v in ["before", "after"] {
        let r = run(&s, v, None, false);
        // syscall.S, sys_getppid: addi sp; sd ra; sd s0; addi s0 (prologue
        // 4), ld real_parent, lw tgid, ld ra; ld s0; addi sp; ret (epilogue
        // 4): 10.
        assert_eq!(insns(&r, "sys_getppid"), Some(10.0), "{v}");
        // user.S, syscall(): 6 x mv a_i, a_i+1 and mv a7, a0 (7), ecall, li
        // a5, -4096 (one lui), bltu (not taken), ret: 11. The ecall counts
        // where it executes, although it traps.
        assert_eq!(insns(&r, "syscall"), Some(11.0), "{v}");
        // user.S, main's timed loop (bench_timed_loop is an unsized label
        // inside the sized main): li a0; jal syscall; bne; addi; blt: 5.
        assert_eq!(insns(&r, "main"), Some(5.0), "{v}");
        // syscall.S, do_trap_ecall_u: prologue 5, user_mode check 3, epc
        // and a0 setup 9, the call 1, bounds check 2, dispatch 7, sd a0 1,
        // mv + the exit call 2, epilogue 5: 35.
        assert_eq!(insns(&r, "do_trap_ecall_u"), Some(35.0), "{v}");
        // entry.S, ret_from_exception: 6 + 5 + 30 ld, ld sp, sret: 43.
        assert_eq!(insns(&r, "ret_from_exception"), Some(43.0), "{v}");
        // Nothing else runs (no firmware, no stray page): the listed path
        // is the whole iteration, in the order it runs.
        let entry = if v == "before" {
            "handle_exception"
        } else {
            "handle_exception_ras"
        };
        let names: Vec<&str> = r
            .functions_per_iteration
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "main",
                "syscall",
                entry,
                "do_trap_ecall_u",
                "syscall_enter_from_user_mode",
                "sys_getppid",
                "syscall_exit_to_user_mode",
                "ret_from_exception"
            ],
            "{v}"
        );
        // kernel.S's hand count: 52 shared + 12 dispatch before, + 11 after.
        let want = if v == "before" { 64.0 } else { 63.0 };
        assert_eq!(insns(&r, entry), Some(want), "{v}");
        // Without a core, no cycles.
        assert!(r.functions_per_iteration.iter().all(|f| f.cycles.is_none()));
    }
}

#[test]
fn per_function_figures_sum_to_the_totals_and_agree_when_stepped() {
    let s = scenario();
    for core in ["u74", "c910"] {
        for v in ["before", "after"] {
            let r = run(&s, v, Some(core), false);
            let f = &r.functions_per_iteration;
            let total: f64 = f.iter().map(|f| f.instructions).sum();
            // kernel.S: 199 per call before the patch, 198 after.
            assert_eq!(total, if v == "before" { 199.0 } else { 198.0 });
            assert_eq!(Some(&total), r.insns_per_iteration.get("total"));
            let cycles: f64 = f.iter().map(|f| f.cycles.unwrap()).sum();
            let e = r.estimate.as_ref().unwrap();
            assert!(
                (cycles - e.cycles_per_iteration).abs() < 1e-9,
                "{core} {v}: {cycles} vs {}",
                e.cycles_per_iteration
            );
            let stepped = run(&s, v, Some(core), true);
            assert_eq!(f, &stepped.functions_per_iteration, "{core} {v}");
        }
    }
}

#[test]
fn a_ras_mispredict_is_charged_to_the_function_of_the_mispredicted_return() {
    // Before the patch, 3 RAS mispredicts per call (tests/cli/cycles.rs): the
    // `jr t0` in handle_exception, do_trap_ecall_u's `ret` and the user
    // wrapper's `ret`. After it, none, and the same instructions run in
    // both functions: each costs one return penalty less, give or take the
    // one cycle of pairing the instruction after a redirect can lose or
    // gain (a redirect starts a new issue group: cost::inorder).
    let s = scenario();
    let p = Profile::find("u74").unwrap();
    let pen = f64::from(p.core.mispredict_return.value);
    let (b, a) = (
        run(&s, "before", Some("u74"), false),
        run(&s, "after", Some("u74"), false),
    );
    let cyc = |r: &VariantRun, n: &str| {
        r.functions_per_iteration
            .iter()
            .find(|f| f.name == n)
            .and_then(|f| f.cycles)
            .unwrap()
    };
    for n in ["syscall", "do_trap_ecall_u"] {
        let d = cyc(&b, n) - cyc(&a, n);
        assert!((d - pen).abs() <= 1.0 + 1e-9, "{n}: {d} vs {pen}");
    }
    // The rest of the kernel path runs the same code with the same
    // predictions: the same cycles.
    for n in [
        "syscall_enter_from_user_mode",
        "sys_getppid",
        "syscall_exit_to_user_mode",
        "ret_from_exception",
    ] {
        assert_eq!(cyc(&b, n), cyc(&a, n), "{n}");
    }
}

#[test]
fn compare_lists_the_functions_the_patch_moved_work_in() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["compare", "scenarios/ras-trap-entry.toml"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let at = text
        .find("per function, before → after (per iteration, cycles on u74)")
        .unwrap_or_else(|| panic!("no per-function section:\n{text}"));
    let rows: Vec<Vec<&str>> = text[at..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    let names: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    // Seed 003 swaps the entry (stvec = handle_exception before,
    // handle_exception_ras after: 64 and 63 instructions by kernel.S's hand
    // count, each 0 in the other variant), and removes the RAS mispredicts
    // of do_trap_ecall_u's `ret` and the user wrapper's `ret` (same
    // instructions, fewer cycles). Every other function runs the same code
    // with the same predictions, so it is not listed.
    assert_eq!(
        names,
        [
            "syscall",
            "handle_exception",
            "handle_exception_ras",
            "do_trap_ecall_u"
        ],
        "{text}"
    );
    let row = |n: &str| rows.iter().find(|r| r[0] == n).unwrap().join(" ");
    assert!(row("handle_exception").starts_with("handle_exception 64 → 0 "));
    assert!(row("handle_exception_ras").starts_with("handle_exception_ras 0 → 63 "));
    assert!(row("do_trap_ecall_u").starts_with("do_trap_ecall_u 35 → 35 "));
    assert!(row("syscall").starts_with("syscall 11 → 11 "));
}

#[test]
fn run_prints_the_per_function_block_after_the_phase_line() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "run",
            "scenarios/ras-trap-entry.toml",
            "-v",
            "before",
            "--core",
            "u74",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("  per iteration "))
        .unwrap();
    assert_eq!(lines[at + 1], "  per function (per iteration)");
    assert!(lines[at + 2].contains("instructions") && lines[at + 2].contains("cycles on u74"));
    let getppid: Vec<&str> = lines[at + 3..]
        .iter()
        .find(|l| l.trim_start().starts_with("sys_getppid "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(getppid[1], "10", "{text}");
    // The columns line up: each row as long as the header.
    let w = lines[at + 2].len();
    for l in &lines[at + 3..at + 11] {
        assert_eq!(l.len(), w, "{l:?}");
    }
}

#[test]
fn json_and_markdown_carry_the_per_function_figures() {
    let cmd = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["run", "scenarios/ras-trap-entry.toml"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let j: serde_json::Value = serde_json::from_str(&cmd(&["--format", "json"])).unwrap();
    let f = j["variants"][0]["functions_per_iteration"]
        .as_array()
        .unwrap();
    let getppid = f.iter().find(|f| f["name"] == "sys_getppid").unwrap();
    // The hand count of sys_getppid (10); no core given, so no cycles.
    assert_eq!(getppid["instructions"], 10.0);
    assert!(getppid["cycles"].is_null());
    let md = cmd(&["--format", "md", "--core", "u74"]);
    assert!(
        md.contains("| function (per iteration) | before instructions | before cycles | after instructions | after cycles |"),
        "{md}"
    );
    // handle_exception runs only before the patch, handle_exception_ras only after.
    let row = |n: &str| {
        md.lines()
            .find(|l| l.starts_with(&format!("| {n} |")))
            .unwrap()
            .split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect::<Vec<_>>()
    };
    assert_eq!(row("handle_exception")[1], "64");
    assert_eq!(row("handle_exception")[3], "0");
    assert_eq!(row("handle_exception_ras")[1], "0");
    assert_eq!(row("handle_exception_ras")[3], "63");
    assert_eq!(row("sys_getppid")[1], "10");
}
