//! The minikernel boots in QEMU virt as well as under trapscope (the
//! snapshot path's CI test, docs/decisions.md D12): both builds, with the CPU pinned to what trapscope runs and no
//! firmware (`-bios none`), run the default benchmark to the end and power
//! QEMU off through the test device with status 0; the sv39 build's
//! page-fault program (its knob patched into a copy of the ELF) runs the
//! hand count per page there too. QEMU is killed on timeout.
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

use crate::snapshot_util;

/// Boots `elf` (relative to the crate) and returns QEMU's exit status, or
/// panics after killing it when it runs past TIMEOUT. With `log`, QEMU
/// writes its trap log (`-d int`) there.
fn boot_logged(elf: &str, log: Option<&Path>) -> i32 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(elf);
    boot_path(&path, log.map(|l| ("int", l)))
}

/// Boots the ELF at `path` as `boot_logged` does; `log` = (QEMU's `-d`
/// items, the file), with `-singlestep` when the items include `exec`.
fn boot_path(path: &Path, log: Option<(&str, &Path)>) -> i32 {
    let elf = path.display();
    let mut cmd = Command::new(QEMU);
    if let Some((items, l)) = log {
        if items.contains("exec") {
            cmd.arg("-singlestep");
        }
        cmd.arg("-d").arg(items).arg("-D").arg(l);
    }
    let mut child = cmd
        .args(["-M", "virt", "-bios", "none", "-nographic", "-cpu", CPU])
        .arg("-kernel")
        .arg(path)
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
    // (tests/machine/irq.rs), and so must QEMU, the device's reference.
    assert_eq!(boot("assets/guest/bad/poweroff_fail.elf"), 7);
}

#[test]
fn qemu_takes_the_same_traps_as_trapscope() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    // tests/machine/minikernel.rs: 112 traps under trapscope, 10 + 100 getppid and
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

/// `elf` with the 8-byte `knob` set to `value` in its file image (what a
/// scenario writes into memory before a run), as a new file in `dir`:
/// QEMU runs the ELF's defaults otherwise.
fn with_knob(elf: &str, knob: &str, value: u64, dir: &Path) -> std::path::PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(elf);
    let addr = trapscope::machine::Program::load(&path)
        .unwrap()
        .symbol(knob)
        .unwrap()
        .addr;
    let mut b = std::fs::read(&path).unwrap();
    let u16_at = |b: &[u8], o: usize| u16::from_le_bytes(b[o..o + 2].try_into().unwrap());
    let u64_at = |b: &[u8], o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
    // ELF64: e_phoff at 0x20, e_phentsize and e_phnum at 0x36 and 0x38; a
    // PT_LOAD's p_offset, p_vaddr and p_filesz at +8, +16 and +32.
    let (phoff, size, n) = (
        u64_at(&b, 0x20) as usize,
        u16_at(&b, 0x36),
        u16_at(&b, 0x38),
    );
    let at = (0..n as usize)
        .map(|i| phoff + i * size as usize)
        .find_map(|ph| {
            let (off, va, filesz) = (u64_at(&b, ph + 8), u64_at(&b, ph + 16), u64_at(&b, ph + 32));
            let load = u32::from_le_bytes(b[ph..ph + 4].try_into().unwrap()) == 1;
            (load && (va..va + filesz).contains(&addr)).then_some((off + addr - va) as usize)
        })
        .unwrap();
    b[at..at + 8].copy_from_slice(&value.to_le_bytes());
    let out = dir.join("patched.elf");
    std::fs::write(&out, b).unwrap();
    out
}

#[test]
fn qemu_runs_the_page_fault_program_at_the_hand_count() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    // zz-pagefault.S (scenarios/page-fault.toml): 10 warm-up and 100 timed
    // pages, one store page fault each, and the hand count of 920
    // instructions from one pf_timed_loop to the next. QEMU, one
    // instruction per translation block (-singlestep) and every block
    // logged (-d exec,nochain), is the independent count: the store that
    // faults is logged when it starts, as trapscope counts it, and again
    // when it runs after the sret.
    let dir = std::env::temp_dir().join(format!("trapscope-qemu-pf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let elf = "assets/guest/minikernel-sv39.elf";
    let patched = with_knob(elf, "knob_pagefault_bench", 1, &dir);
    let log = dir.join("pf.log");
    let status = boot_path(&patched, Some(("exec,nochain,int", &log)));
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(status, 0);
    let top = trapscope::machine::Program::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(elf))
        .unwrap()
        .symbol("pf_timed_loop")
        .unwrap()
        .addr;
    // "Trace 0: HOST [CS_BASE/PC/FLAGS/CFLAGS] ...": one line per block run.
    let pcs: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("Trace "))
        .filter_map(|l| l.split('/').nth(1))
        .filter_map(|pc| u64::from_str_radix(pc, 16).ok())
        .collect();
    let tops: Vec<usize> = (0..pcs.len()).filter(|&i| pcs[i] == top).collect();
    assert_eq!(tops.len(), 100, "timed passes");
    assert!(tops.windows(2).all(|w| w[1] - w[0] == 920), "{tops:?}");
    if text.contains("desc=") {
        let count = |d: &str| text.lines().filter(|l| l.ends_with(d)).count();
        assert_eq!(count("desc=store_page_fault"), 110);
        assert_eq!(text.lines().filter(|l| l.contains("desc=")).count(), 112);
    }
}
