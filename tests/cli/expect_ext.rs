//! The expectation language's look-ups by name and arithmetic, end to end:
//! `check` on tests/data/seed_table.toml (the minikernel's two entries),
//! what it prints for passing, failing and unreadable expectations, and
//! parse errors at the `file:line:col` of the token they are about.
//!
//! Hand counts (the comment block at the top of
//! guest-asm/minikernel/kernel.S): per getppid() call, user 16, entry 64
//! (handle_exception, variant old) or 63 (handle_exception_ras, variant
//! new), syscall 58, exit 61; the fast path never calls
//! syscall_trace_enter.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{scratch, trapscope_within, write};
use trapscope::scenario::Scenario;

const LIMIT: Duration = Duration::from_secs(180);
const DATA: &str = "tests/data/seed_table.toml";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The data scenario with its guest path made absolute (so a copy can
/// live elsewhere), plus `tail`; and the line `tail` starts on.
fn data_with(tail: &str) -> (String, usize) {
    let src = std::fs::read_to_string(root().join(DATA)).unwrap();
    let elf = root().join("assets/guest/minikernel.elf");
    let src = src.replace(
        "elf = \"../../assets/guest/minikernel.elf\"",
        &format!("elf = \"{}\"", elf.display()),
    );
    assert!(src.ends_with('\n'));
    let first = src.lines().count() + 1;
    (format!("{src}{tail}"), first)
}

fn parse_err(tail: &str) -> (String, usize) {
    let (src, first) = data_with(tail);
    let e = Scenario::parse(&PathBuf::from("t.toml"), &src)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    (e, first)
}

#[test]
fn check_prints_lookups_by_name_and_arithmetic_with_their_values() {
    let out = trapscope_within(&["check", DATA], LIMIT);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    for core in ["u74", "c910"] {
        for line in [
            // 64 in handle_exception; none there with the new entry (the
            // function never ran: 0), 63 in handle_exception_ras.
            "old entry: handle_exception runs its 64 instructions (64 == 64)",
            "new entry: handle_exception never runs (absent = 0) (0 == 0)",
            "new entry: handle_exception_ras runs its 63 (63 == 63)",
            "the fast path takes no work branch (0 == 0)",
            // 198 - 199 on the left; 63 - 64 on the right.
            "the pair differs by the handlers alone (-1 == 63 - 64 = -1)",
            "phases add up (199 == 16 + 64 + 58 + 61 = 199)",
            "two entries of the new kind are 126 instructions (2 * 63 = 126 == 126)",
            "one fewer, times 8 (8 * -1 = -8 == -8)",
        ] {
            let want = format!("  ok    [{core}] {line}");
            assert!(text.lines().any(|l| l == want), "no {want:?} in:\n{text}");
        }
    }
    assert!(text.contains("16 passed, 0 failed"), "{text}");
}

#[test]
fn a_false_or_unreadable_expectation_says_both_sides_and_where() {
    let (src, first) = data_with(
        "[[expect]]\nname = \"wrong on purpose\"\ncheck = \"8 * pair.old.new.instructions == 8\"\n\
         [[expect]]\nname = \"no such metric\"\ncheck = \"old.estimate.unit_cycles.issue + 1 == 0\"\n",
    );
    let dir = scratch("expect-ext-false");
    let p = write(&dir, "f.toml", src.as_bytes());
    let out = trapscope_within(&["check", &p], LIMIT);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    // The first check's string starts at column 9 (`check = "`) of line
    // first + 2; the second's at line first + 5.
    let want = format!(
        "  FAIL  [u74] wrong on purpose: 8 * pair.old.new.instructions == 8 is false (8 * -1 = -8, not == 8) at {p}:{}:9",
        first + 2
    );
    assert!(text.lines().any(|l| l == want), "no {want:?} in:\n{text}");
    // A name the load accepts (a cost category) that this run has no unit
    // cost for: the run lacks it.
    let want = "  FAIL  [u74] no such metric: old.estimate.unit_cycles.issue + 1 == 0 names a metric the run does not have ('estimate.unit_cycles' has no 'issue' (it has: ";
    let l = text
        .lines()
        .find(|l| l.starts_with(want))
        .unwrap_or_else(|| panic!("no {want:?} in:\n{text}"));
    assert!(l.contains("traps"), "{l}");
    assert!(l.ends_with(&format!(" at {p}:{}:9", first + 5)), "{l}");
    assert!(text.contains("16 passed, 4 failed"), "{text}");
}

#[test]
fn parse_errors_point_into_the_check_string() {
    // `check = "` is 9 characters: byte k of the value is column 10 + k.
    let cases: [(&str, usize, &str); 6] = [
        // 'handle_exceptoin' at byte 28 of the value.
        (
            "old.functions_per_iteration.handle_exceptoin.instructions == 0",
            28,
            "'handle_exceptoin' is not a function of variant 'old''s guest",
        ),
        (
            "old.iterations == 8 * nope.iterations",
            22,
            "unknown variant 'nope'",
        ),
        (
            "old.iterations = 1",
            15,
            "'=' is not a comparison: write ==",
        ),
        ("old.iterations / 2 == 1", 15, "'/' is not supported"),
        (
            "old.iterations == (1 + 2",
            18,
            "this '(' has no matching ')'",
        ),
        (
            "pair.old.new.exit_code == 0",
            13,
            "a pair's metric is one of instructions, cycles, ns",
        ),
    ];
    for (check, at, says) in cases {
        let (e, first) = parse_err(&format!("[[expect]]\nname = \"x\"\ncheck = \"{check}\"\n"));
        let want = format!("t.toml:{}:{}: ", first + 2, 10 + at);
        assert!(e.starts_with(&want), "{check}: {e} (want {want})");
        assert!(e.contains(says), "{check}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
    // A basic string with an escape: the error points at the string.
    let (e, first) =
        parse_err("[[expect]]\nname = \"x\"\ncheck = \"old.iterations == \\u006eope.x\"\n");
    assert!(e.starts_with(&format!("t.toml:{}:9: ", first + 2)), "{e}");
    assert!(e.contains("unknown variant 'nope'"), "{e}");
}

#[test]
fn a_page_name_and_a_symbol_off_the_path_are_functions_too() {
    // A page (code under no symbol) and a symbol the loop never runs
    // (kernel_start runs once, at boot, before the window) both parse, and
    // both read 0 per iteration.
    let (src, _) = data_with(
        "[[expect]]\nname = \"page\"\ncheck = \"old.functions_per_iteration.0x80001000.instructions == 0\"\n\
         [[expect]]\nname = \"boot\"\ncheck = \"old.functions_per_iteration.kernel_start.instructions == 0\"\n",
    );
    let s = Scenario::parse(&root().join("tests/data/t.toml"), &src).unwrap();
    assert_eq!(s.expect.len(), 10);
    assert_eq!(
        s.expect[8].check.to_string(),
        "old.functions_per_iteration.0x80001000.instructions == 0"
    );
    // A page name that is not 4 KiB aligned is not one.
    let (e, _) = parse_err(
        "[[expect]]\nname = \"x\"\ncheck = \"old.functions_per_iteration.0x80001004.instructions == 0\"\n",
    );
    assert!(e.contains("'0x80001004' is not a function"), "{e}");
}

/// Thousands of nested parentheses, or tens of thousands of terms, are
/// refused at load at the token past the bound (parse.rs: MAX_DEPTH 32,
/// MAX_TOKENS 512), in one line, rather than overflow the stack.
#[test]
fn hostile_expectations_are_refused_at_the_token_past_the_bound() {
    let dir = scratch("expect-bounds");
    let nested = |n: usize| format!("{}old.iterations{} == 1", "(".repeat(n), ")".repeat(n));
    let term = "old.iterations + ";
    let long = format!("{}old.iterations == 1", term.repeat(30_000));
    // `check = "` is 9 characters: byte k of the value is column 10 + k.
    // The 33rd '(' is byte 32; 5,000 of them reach token 512 (counted
    // from 0) first, at byte 512; in the sum, token 512 is the 257th
    // metric, at byte 256 · 17.
    let cases = [
        (nested(100), 10 + 32, "parentheses nest at most 32 deep"),
        (nested(5000), 10 + 512, "at most 512 tokens"),
        (long, 10 + 256 * term.len(), "at most 512 tokens"),
    ];
    for (check, col, says) in cases {
        let (src, first) = data_with(&format!("[[expect]]\nname = \"x\"\ncheck = \"{check}\"\n"));
        let p = write(&dir, "hostile.toml", src.as_bytes());
        let out = trapscope_within(&["check", &p], LIMIT);
        let at = format!("hostile.toml:{}:{col}: ", first + 2);
        common::fails_one_line(&out, 2, &[&at, says]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
