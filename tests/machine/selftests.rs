//! The guest self-tests (guest-asm/tests/) run through `trapscope elf`: each
//! checks part of the trap machinery from inside the guest and reports through
//! `tohost`. One fails on purpose, to prove failures are reported.

use std::path::Path;
use std::process::Command;

fn run_elf(rel: &str) -> (Option<i32>, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .arg("elf")
        .arg(root.join(rel))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_self_test_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(root.join("assets/guest/tests"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".elf") && n != "fail_on_purpose.elf")
        .collect();
    names.sort();
    assert!(names.len() >= 9, "expected the self-tests, found {names:?}");
    let mut failed = Vec::new();
    for n in &names {
        let (code, err) = run_elf(&format!("assets/guest/tests/{n}"));
        if code != Some(0) {
            failed.push(format!("{n}: exit {code:?} {err}"));
        }
    }
    assert!(
        failed.is_empty(),
        "self-tests failed:\n{}",
        failed.join("\n")
    );
}

#[test]
fn the_deliberately_failing_test_reports_its_check_number() {
    // fail_on_purpose.S: checks 1 and 2 hold, check 3 is false by design.
    let (code, err) = run_elf("assets/guest/tests/fail_on_purpose.elf");
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("code 3"), "{err}");
}

#[test]
fn ebreak_can_be_a_user_breakpoint_instead_of_a_guest_trap() {
    // delegation.S's first trap is an ebreak from U-mode at user_code (0x10000).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .args(["elf", "--ebreak-stops"])
        .arg(root.join("assets/guest/tests/delegation.elf"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(125), "{err}");
    assert!(err.contains("ebreak at 0x10000"), "{err}");
}

/// The CSR layer's spec corners, each a self-test named here so that losing
/// one fails loudly (the sweep above only runs what it finds).
#[test]
fn the_csr_spec_corner_tests_pass() {
    for n in ["tsr_tvm", "xl", "triggers", "fp_minmax", "fp_nanbox"] {
        let (code, err) = run_elf(&format!("assets/guest/tests/{n}.elf"));
        assert_eq!(code, Some(0), "{n}: {err}");
    }
}
