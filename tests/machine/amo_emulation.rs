//! The firmware's AMO emulation (guest-asm/minikernel/zalrsc-fw.S, shaped
//! like OpenSBI's sbi_illegal_insn_handler -> sbi_illegal_atomic path): the
//! results of every AMO variant from S and U, and the instruction counts of
//! the path, which follow from the hand count in that file's header.

use std::path::Path;
use std::process::Command;

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .args(args)
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

/// A scenario for guest-asm/tests/amo_emul.elf with the firmware knob.
fn amo_emul_scenario(tag: &str) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("trapscope-amo-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let toml = format!(
        "title = \"amo\"\npatch = \"p\"\nelf = \"{}\"\n[knobs.fw]\nsymbol = \"knob_fw_emulate_amo\"\ndefault = 0\n[[variants]]\nname = \"only\"\n",
        root.join("assets/guest/tests/amo_emul.elf").display()
    );
    let p = dir.join("amo.toml");
    std::fs::write(&p, toml).unwrap();
    p
}

/// The figure after `label` on the line that has it, e.g. "amo_emulation".
fn figure_after(text: &str, label: &str) -> u64 {
    let at = text
        .find(label)
        .unwrap_or_else(|| panic!("no {label} in {text}"));
    text[at + label.len()..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no figure after {label} in {text}"))
}

/// amo_emul.S checks the spec's result of each of the 72 AMO.W/.D variants
/// from S and then from U (exit 0), plus rd = x0, a misaligned AMO (cause 6)
/// and one to no memory (cause 7), and from S with Sv39 on one through an
/// invalid PTE (cause 15). Traps on the P8700, where every AMO traps: the
/// boot probe 1; per pass 72 + 1 AMOs, and the faulting AMOs trap twice
/// each (the AMO, then its LR into fw_expected_trap): 77 per pass, 154 for
/// two, 2 more for the page fault; two ecalls: 159. With knob 3 there is no
/// probe: 158. Natively the faults trap once each (delegated to S): 2 x 2
/// + 1 + the two ecalls = 7.
#[test]
fn every_amo_variant_from_s_and_u_is_emulated_with_the_spec_result() {
    let p = amo_emul_scenario("pass");
    let s = p.to_str().unwrap();
    for (knob, traps) in [("0", 159), ("3", 158)] {
        let set = format!("fw={knob}");
        let (code, out) = run(&["run", s, "--core", "p8700", "--set", &set]);
        assert_eq!(code, Some(0), "{out}");
        assert!(out.contains("exited with code 0"), "{out}");
        assert!(
            out.contains(&format!("{traps} traps")),
            "knob {knob}: {out}"
        );
    }
    // The faulting AMOs, by zalrsc-fw.S's hand count: the catcher runs 13
    // for each, fw_trap_redirect 29, fw_amo_redirect 6 for the misaligned
    // one (cause 4 is its first test), 8 for the one to no memory (cause 5,
    // the second) and 10 for the page fault (13, the third).
    // fw_atomic_add_w: amoadd.w 54 twice (rd = a0, rd = x0) and a faulting
    // one 38 (set-up 18, 7 up to the lr, 9 after the catcher, epilogue 4);
    // fw_atomic_add_d: 52 and the faulting one 37 (no sext.w). Each per
    // pass, two passes, and the page fault (amoadd.w) in the S pass only.
    let (code, out) = run(&["run", s, "--core", "p8700"]);
    assert_eq!(code, Some(0), "{out}");
    for (f, n) in [
        ("fw_expected_trap", (2 * 2 + 1) * 13),
        ("fw_trap_redirect", (2 * 2 + 1) * 29),
        ("fw_amo_redirect", 2 * (6 + 8) + 10),
        ("fw_atomic_add_w", 2 * (54 + 54 + 38) + 38),
        ("fw_atomic_add_d", 2 * (52 + 37)),
    ] {
        assert_eq!(figure_after(&out, &format!("    {f} ")), n, "{f}: {out}");
    }
    // Natively (U74): no AMO traps, only the five faults' and the ecalls.
    let (code, out) = run(&["run", s, "--core", "u74"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("exited with code 0") && out.contains(" 7 traps"),
        "{out}"
    );
}

/// zalrsc-fw.S's header: 263 instructions per emulated AMO outside the
/// atomic function, and the atomic function 54 for add .w, 52 for
/// add/or/and .d, 51 for swap .d. Per atomics_wake call (kernel.S's seed
/// 004 section): amoadd.w.aqrl x2, amoor.d.aq, amoor.d.aqrl,
/// amoswap.d.aqrl, amoadd.w x2, amoand.d.rl, so 8 x 263 plus
/// 54 x 4 + 52 x 3 + 51 = 2104 + 423 = 2527; the rest of the iteration is
/// the native build's 305. With mtval left 0 (knob 3) each AMO also fetches
/// its encoding: 33 more (9 in fw_illegal_insn_handler, 24 in fw_get_insn).
#[test]
fn the_emulated_path_runs_the_hand_counted_instructions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scen = root.join("scenarios/zalrsc-atomics.toml");
    let (code, out) = run(&[
        "run",
        scen.to_str().unwrap(),
        "--core",
        "p8700",
        "-v",
        "zaamo_y",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(figure_after(&out, "amo_emulation"), 8 * 263 + 423, "{out}");
    assert_eq!(figure_after(&out, "(total"), 305 + 2527, "{out}");
    for (f, n) in [
        ("fw_trap_entry_full", 101),
        ("fw_trap_handler", 57),
        ("fw_sse_process_pending", 20),
        ("fw_illegal_insn_handler", 32),
        ("fw_pmu_ctr_incr_fw", 19),
        ("fw_illegal_atomic", 15),
    ] {
        assert_eq!(
            figure_after(&out, &format!("    {f} ")),
            8 * n,
            "{f}: {out}"
        );
    }
    assert_eq!(figure_after(&out, "fw_atomic_swap_d_aqrl "), 51, "{out}");
    assert_eq!(figure_after(&out, "fw_atomic_add_w "), 2 * 54, "{out}");
}

#[test]
fn a_hart_that_leaves_mtval_zero_costs_the_fetch_through_mprv() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("trapscope-amo-notval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root.join("scenarios/zalrsc-atomics.toml")).unwrap();
    let text = text
        .replace(
            "\"../assets/guest/minikernel.elf\"",
            &format!("\"{}\"", root.join("assets/guest/minikernel.elf").display()),
        )
        .replace(
            "[knobs.zaamo]",
            "[knobs.fw]\nsymbol = \"knob_fw_emulate_amo\"\ndefault = 3\n[knobs.zaamo]",
        );
    let p = dir.join("z.toml");
    std::fs::write(&p, text).unwrap();
    let (code, out) = run(&[
        "run",
        p.to_str().unwrap(),
        "--core",
        "p8700",
        "-v",
        "zaamo_y",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(figure_after(&out, "amo_emulation"), 2527 + 8 * 33, "{out}");
    assert_eq!(figure_after(&out, "    fw_get_insn "), 8 * 24, "{out}");
    assert_eq!(
        figure_after(&out, "    fw_trap_entry_notval "),
        8 * 101,
        "{out}"
    );
}

/// Block mode and single-step give the same run through the emulation,
/// its trap catcher and its redirects (docs/decisions.md D7: identical events and cycles).
#[test]
fn the_emulation_runs_the_same_in_block_mode_and_single_step() {
    let p = amo_emul_scenario("step");
    let s = p.to_str().unwrap();
    for knob in ["0", "3"] {
        let set = format!("fw={knob}");
        let (_, block) = run(&["run", s, "--core", "p8700", "--set", &set, "--events"]);
        let (_, step) = run(&[
            "run", s, "--core", "p8700", "--set", &set, "--events", "--step",
        ]);
        assert!(block.contains("exited with code 0"), "{block}");
        assert_eq!(block, step, "knob {knob}");
    }
}
