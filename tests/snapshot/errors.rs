//! Bad input to snapshots, through the binary (docs/reference/cli.md, "Exit status"): each
//! case gives one `trapscope: ` line on stderr and exit 2 (130 for Ctrl-C,
//! 143 for SIGTERM), never a panic or a hang, and no QEMU outlives
//! trapscope.
//!
//! Where QEMU runs, `trapscope snapshot` first prints progress lines
//! (`trapscope: snapshot: ...`); the error is then the one other line, and
//! the last. QEMU's command line holds trapscope's scratch directory,
//! `trapscope-snapshot-<pid>-N`, which is how a leftover QEMU is found.
//! QEMU cases skip with a printed reason when qemu-system-riscv64 is absent
//! (fail under TRAPSCOPE_REQUIRE_QEMU=1); build-id cases need binutils
//! (fail under TRAPSCOPE_REQUIRE_GUEST_AS=1).

use crate::snapshot_util;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use snapshot_util::{finish, manifest, poweroff_ram, scenario, scratch, vector, write_snapshot};

/// The refusals that need no QEMU: scenarios naming bad snapshots, and
/// `trapscope snapshot`'s checks before QEMU starts.
mod no_qemu;
use no_qemu::{elf_args, image};

const MINIKERNEL: &str = "assets/guest/minikernel-sv39.elf";
/// Spins at `_start` forever; its `tohost` is data, never executed.
const SPINNER: &str = "assets/guest/bad/loop_forever.elf";
/// Prints two lines on the UART, then loops, never reaching `never_reached`.
const CONSOLE_SPINNER: &str = "assets/guest/bad/console_spin.elf";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn spawn(args: &[&str], env: &[(&str, &str)]) -> Child {
    let mut c = Command::new(env!("CARGO_BIN_EXE_trapscope"));
    c.current_dir(root())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    c.spawn().unwrap()
}

fn trapscope(args: &[&str], env: &[(&str, &str)]) -> Output {
    finish(spawn(args, env), Duration::from_secs(20), &args.join(" "))
}

/// Asserts exit `code` and that stderr is exactly one line, prefixed
/// `trapscope: `, holding every needle.
fn one_line(out: &Output, code: i32, needles: &[&str]) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    assert!(err.starts_with("trapscope: "), "{err}");
    assert!(!err.contains('\u{1b}'), "no escape sequences: {err}");
    for n in needles {
        assert!(err.contains(n), "expected {n:?} in: {err}");
    }
    err
}

/// As `one_line`, but after any number of `trapscope: snapshot: ` progress
/// lines: the error is the last line and the only other one.
fn progress_then_one_line(out: &Output, code: i32, needles: &[&str]) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    assert!(!err.contains('\u{1b}'), "no escape sequences: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.iter().all(|l| l.starts_with("trapscope: ")), "{err}");
    let others: Vec<&&str> = lines
        .iter()
        .filter(|l| !l.starts_with("trapscope: snapshot: "))
        .collect();
    assert_eq!(others.len(), 1, "one error line: {err}");
    let last = lines.last().copied().unwrap_or("");
    assert_eq!(*others[0], last, "the error comes last: {err}");
    for n in needles {
        assert!(last.contains(n), "expected {n:?} in: {last}");
    }
    last.to_string()
}

/// Fails if a QEMU started by trapscope process `pid` still runs, or its
/// scratch directory (the gdbstub's socket, the console) is left behind.
/// After a failed snapshot: no QEMU, no scratch, no half-written output;
/// then the test's own scratch goes.
fn nothing_left(pid: u32, out_dir: impl AsRef<Path>, dir: &Path) {
    no_qemu_left(pid);
    assert!(
        !out_dir.as_ref().exists(),
        "no half-written snapshot is left"
    );
    let _ = std::fs::remove_dir_all(dir);
}

fn no_qemu_left(pid: u32) {
    let marker = format!("trapscope-snapshot-{pid}-");
    let left: Vec<String> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&marker))
        .collect();
    assert!(left.is_empty(), "scratch left behind: {left:?}");
    // QEMU is killed and reaped before trapscope exits; allow the kernel
    // a moment to drop the process entry.
    let start = Instant::now();
    while let Some(cmd) = snapshot_util::process_with(&marker) {
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "QEMU outlived trapscope: {cmd}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

// ---- `trapscope snapshot` with QEMU running ----

#[test]
fn a_vlen_qemu_cannot_take_is_refused_before_booting() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = scratch("vlen-arg");
    let out_dir = s(&dir.join("out"));
    for vlen in ["100", "2048"] {
        let mut args = elf_args(&out_dir, "user_syscall_ecall");
        args.extend(["--vlen", vlen]);
        let child = spawn(&args, &[]);
        let pid = child.id();
        let out = finish(child, Duration::from_secs(15), "--vlen");
        one_line(
            &out,
            2,
            &[
                &format!("VLEN {vlen} cannot be given to QEMU"),
                "128 to 1024",
            ],
        );
        no_qemu_left(pid);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_guest_that_never_reaches_the_ecall_ends_at_the_timeout() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = scratch("never");
    let out_dir = dir.join("out");
    let start = Instant::now();
    let child = spawn(
        &[
            "snapshot",
            "--elf",
            CONSOLE_SPINNER,
            "--ecall-symbol",
            "never_reached",
            "--loop-symbol",
            "_start",
            "--timeout",
            "3",
            "-o",
            &s(&out_dir),
        ],
        &[],
    );
    let pid = child.id();
    let out = finish(child, Duration::from_secs(15), "the spinner");
    let took = start.elapsed();
    progress_then_one_line(
        &out,
        2,
        &[
            "did not reach never_reached",
            "within 3 s",
            // The guest's two lines (guest-asm/bad/console_spin.S).
            "console tail: console_spin: booting | console_spin: waiting forever",
        ],
    );
    assert!(
        took >= Duration::from_secs(3) && took < Duration::from_secs(6),
        "ends at the 3 s timeout, took {took:?}"
    );
    nothing_left(pid, &out_dir, &dir);
}

#[test]
fn a_guest_that_ends_before_the_ecall_is_reported_as_such() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    // The minikernel runs its benchmark and powers QEMU off; its M-mode
    // ecall handler never runs (it makes no M-mode ecall).
    let dir = scratch("ends");
    let out_dir = s(&dir.join("out"));
    let mut args = elf_args(&out_dir, "do_trap_ecall_m");
    args.extend(["--timeout", "8"]);
    let start = Instant::now();
    let child = spawn(&args, &[]);
    let pid = child.id();
    let out = finish(child, Duration::from_secs(15), "the minikernel");
    progress_then_one_line(
        &out,
        2,
        &["QEMU stopped", "do_trap_ecall_m", "0 of 100 times"],
    );
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "ends when QEMU does, not at the timeout"
    );
    no_qemu_left(pid);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_while_waiting_exits_130_and_stops_qemu() {
    if snapshot_util::qemu_or_skip() {
        stop_with("INT", false, 130, "trapscope: interrupted (Ctrl-C)");
    }
}

#[test]
fn sigterm_while_waiting_exits_143_and_stops_qemu() {
    if snapshot_util::qemu_or_skip() {
        stop_with("TERM", false, 143, "trapscope: terminated (SIGTERM)");
    }
}

#[test]
fn ctrl_c_at_a_terminal_also_signals_qemu_and_still_exits_130() {
    // A terminal's Ctrl-C goes to the whole foreground process group,
    // QEMU included: it may die first; trapscope must still say Ctrl-C.
    if snapshot_util::qemu_or_skip() {
        stop_with("INT", true, 130, "trapscope: interrupted (Ctrl-C)");
    }
}

/// Runs the spinner with a 30 s timeout and sends SIG`sig` once QEMU runs:
/// to trapscope alone, or (`group`) to its process group, as a terminal
/// does; trapscope must exit `code` with the one line `line` promptly.
/// `snapshot` of a guest that never reaches its ecall, for 30 s at most.
fn spinner_args(out_dir: &Path) -> Vec<String> {
    [
        "snapshot",
        "--elf",
        SPINNER,
        "--ecall-symbol",
        "tohost",
        "--loop-symbol",
        "_start",
        "--timeout",
        "30",
        "-o",
    ]
    .map(String::from)
    .into_iter()
    .chain([s(out_dir)])
    .collect()
}

fn stop_with(sig: &str, group: bool, code: i32, line: &str) {
    use std::os::unix::process::CommandExt;
    let dir = scratch(&format!("sig{sig}-{group}"));
    let out_dir = dir.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(spinner_args(&out_dir))
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // Wait until trapscope says QEMU is starting, then until QEMU runs.
    let mut err = child.stderr.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 256];
    let start = Instant::now();
    while !String::from_utf8_lossy(&seen).contains("starting QEMU") {
        assert!(start.elapsed() < Duration::from_secs(10), "no progress");
        match err.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
        }
    }
    let marker = format!("trapscope-snapshot-{pid}-");
    while snapshot_util::process_with(&marker).is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "QEMU never started: {}",
            String::from_utf8_lossy(&seen)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // To trapscope alone once it waits for the guest; to the group at once,
    // perhaps before QEMU's gdbstub is up (either must end promptly).
    if !group {
        std::thread::sleep(Duration::from_millis(300));
    }
    let target = if group {
        format!("-{pid}")
    } else {
        pid.to_string()
    };
    let st = Command::new("kill")
        .args([&format!("-{sig}"), "--", &target])
        .status()
        .unwrap();
    assert!(st.success());
    let sent = Instant::now();
    let reader = std::thread::spawn(move || {
        let mut rest = Vec::new();
        let _ = err.read_to_end(&mut rest);
        rest
    });
    let mut out = finish(child, Duration::from_secs(10), &format!("after SIG{sig}"));
    assert!(
        sent.elapsed() < Duration::from_secs(3),
        "SIG{sig} is honoured promptly"
    );
    seen.extend(reader.join().unwrap());
    out.stderr = seen;
    progress_then_one_line(&out, code, &[line]);
    nothing_left(pid, &out_dir, &dir);
}

#[test]
fn a_kernel_that_does_not_boot_ends_at_the_timeout_with_the_console_tail() {
    if !snapshot_util::qemu_or_skip() || !snapshot_util::binutils_or_skip() {
        return;
    }
    // An "Image" with the header's magic and the vmlinux's build id, and
    // nothing a hart can run: QEMU's firmware (OpenSBI) boots and jumps to
    // it, and the init never runs.
    const ID: &str = "00112233445566778899aabbccddeeff00112233";
    let dir = scratch("noboot");
    let vm = snapshot_util::vmlinux(&dir, "vmlinux", Some(ID));
    let raw: Vec<u8> = (0..ID.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&ID[i..i + 2], 16).unwrap())
        .collect();
    let img = dir.join("Image");
    std::fs::write(&img, image(&raw)).unwrap();
    let out_dir = dir.join("out");
    let start = Instant::now();
    let child = spawn(
        &[
            "snapshot",
            "--kernel",
            &s(&img),
            "--vmlinux",
            &s(&vm),
            "--timeout",
            "3",
            "-o",
            &s(&out_dir),
        ],
        &[],
    );
    let pid = child.id();
    let out = finish(child, Duration::from_secs(15), "the bogus Image");
    let e = progress_then_one_line(&out, 2, &["did not reach init_ecall", "within 3 s"]);
    assert!(
        e.contains("; console tail: ") || e.ends_with("; the console printed nothing"),
        "{e}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(6),
        "ends at the timeout"
    );
    nothing_left(pid, &out_dir, &dir);
}

/// SIGKILL runs no destructor, yet QEMU must not outlive trapscope: the
/// watchdog shell QEMU runs under sees its pipe to trapscope close and
/// kills it (qemu/process.rs).
#[test]
fn sigkill_of_trapscope_still_ends_qemu() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = scratch("sigkill");
    let out_dir = dir.join("out");
    let child = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(spinner_args(&out_dir))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let marker = format!("trapscope-snapshot-{pid}-");
    let start = Instant::now();
    while snapshot_util::process_with(&marker).is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "QEMU never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let st = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let _ = finish(child, Duration::from_secs(5), "after SIGKILL");
    let gone = Instant::now();
    while snapshot_util::process_with(&marker).is_some() {
        assert!(
            gone.elapsed() < Duration::from_secs(3),
            "QEMU outlived a killed trapscope: {:?}",
            snapshot_util::process_with(&marker)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
