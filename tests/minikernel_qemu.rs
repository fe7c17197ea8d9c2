//! The minikernel boots in QEMU virt as well as under trapscope (the
//! snapshot path's CI test, docs/decisions.md D12): both builds, with the CPU pinned to what trapscope runs and no
//! firmware (`-bios none`), run the default benchmark to the end and power
//! QEMU off through the test device with status 0. QEMU is killed on timeout.
//!
//! Skips with a printed reason when qemu-system-riscv64 is absent; with
//! TRAPSCOPE_REQUIRE_QEMU=1 (CI) absence is a failure instead.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The pinned CPU of docs/decisions.md D12 for QEMU 7.2: what unicorn (QEMU 5.0)
/// runs, at privileged spec 1.11.
const CPU: &str = "rv64,sstc=off,h=off,zba=off,zbb=off,zbc=off,zbs=off,svpbmt=off,\
svinval=off,svnapot=off,Zihintpause=off,Zfh=off,Zfhmin=off,priv_spec=v1.11.0";

/// Far more than a run takes (a few milliseconds); a guest that never
/// reaches the test device hits it.
const TIMEOUT: Duration = Duration::from_secs(30);

const QEMU: &str = "qemu-system-riscv64";

mod snapshot_util;

/// Boots `elf` (relative to the crate) and returns QEMU's exit status, or
/// panics after killing it when it runs past TIMEOUT. With `log`, QEMU
/// writes its trap log (`-d int`) there.
fn boot_logged(elf: &str, log: Option<&Path>) -> i32 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(elf);
    let mut cmd = Command::new(QEMU);
    if let Some(l) = log {
        cmd.arg("-d").arg("int").arg("-D").arg(l);
    }
    let mut child = cmd
        .args(["-M", "virt", "-bios", "none", "-nographic", "-cpu", CPU])
        .arg("-kernel")
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            return st.code().unwrap_or_else(|| {
                panic!(
                    "{elf}: QEMU killed by a signal; stderr: {}",
                    String::from_utf8_lossy(&out.stderr)
                )
            });
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{elf}: QEMU still running after {TIMEOUT:?} (killed): the guest never reached the test device; stdout: {} stderr: {}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn boot(elf: &str) -> i32 {
    boot_logged(elf, None)
}

#[test]
fn both_minikernel_builds_power_qemu_off_with_status_0() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    // user.S: 10 warm-up and 100 timed getppid calls, each checked against
    // the expected parent; exit(0) -> SBI reset -> fw_halt -> test device.
    for elf in [
        "assets/guest/minikernel.elf",
        "assets/guest/minikernel-sv39.elf",
    ] {
        assert_eq!(boot(elf), 0, "{elf}");
    }
}

#[test]
fn the_test_device_status_is_the_one_trapscope_reports() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    // bad/poweroff_fail.S stores 0x3333 | 7 << 16; trapscope exits 7 on it
    // (tests/irq.rs), and so must QEMU, the device's reference.
    assert_eq!(boot("assets/guest/bad/poweroff_fail.elf"), 7);
}

#[test]
fn qemu_takes_the_same_traps_as_trapscope() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    // tests/minikernel.rs: 112 traps under trapscope, 10 + 100 getppid and
    // the exit from U, and the firmware's SBI reset call from S. QEMU's
    // `-d int` log names each exception (QEMU 7.2: "desc=user_ecall").
    for elf in [
        "assets/guest/minikernel.elf",
        "assets/guest/minikernel-sv39.elf",
    ] {
        let dir = std::env::temp_dir().join(format!("trapscope-qemu-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join(format!("{}.log", elf.rsplit('/').next().unwrap()));
        assert_eq!(boot_logged(elf, Some(&log)), 0, "{elf}");
        let text = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let count = |d: &str| text.lines().filter(|l| l.ends_with(d)).count();
        if !text.contains("desc=") {
            eprintln!("{elf}: this QEMU's -d int log names no traps; count not compared");
            continue;
        }
        assert_eq!(count("desc=user_ecall"), 111, "{elf}");
        assert_eq!(count("desc=supervisor_ecall"), 1, "{elf}");
        assert_eq!(
            text.lines().filter(|l| l.contains("desc=")).count(),
            112,
            "{elf}"
        );
    }
}
