//! Helpers shared by the integration tests: running the binary with a time
//! limit, and tiny ELF files built byte by byte.

#![allow(dead_code)]

pub mod checkpoint;
pub mod getppid;
pub mod tui;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `trapscope args...` from the crate directory; panics if it takes
/// longer than `limit` (killing it first).
pub fn trapscope_within(args: &[&str], limit: Duration) -> Output {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "trapscope {args:?} took longer than {limit:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// Asserts a failure with `code` and exactly one line on stderr, prefixed
/// `trapscope: `, containing every `needle`.
pub fn fails_one_line(out: &Output, code: i32, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    assert!(err.starts_with("trapscope: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "expected {n:?} in: {err}");
    }
}

/// A scratch directory unique to this test process and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("trapscope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// One PT_LOAD: (p_vaddr, p_memsz, bytes in the file, p_flags).
pub struct Load {
    pub vaddr: u64,
    pub memsz: u64,
    pub bytes: Vec<u8>,
    pub flags: u32,
}

impl Load {
    /// An executable segment holding `code`, `memsz` bytes in memory.
    pub fn code(vaddr: u64, memsz: u64, code: &[u8]) -> Load {
        Load {
            vaddr,
            memsz,
            bytes: code.to_vec(),
            flags: 5, // R + X
        }
    }
}

/// `j .` (jal x0, 0).
pub const SPIN: [u8; 4] = [0x6f, 0x00, 0x00, 0x00];

/// An ELF64 little-endian RISC-V executable (gABI "ELF Header", "Program
/// Header"): the 64-byte header, the program headers right after it, then
/// each segment's bytes. No sections.
pub fn elf(entry: u64, loads: &[Load]) -> Vec<u8> {
    let phoff = 64u64;
    let mut data_off = phoff + 56 * loads.len() as u64;
    let mut out = Vec::new();
    out.extend_from_slice(b"\x7fELF");
    out.extend_from_slice(&[2, 1, 1, 0]); // ELFCLASS64, ELFDATA2LSB, EV_CURRENT, SYSV
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&2u16.to_le_bytes()); // ET_EXEC
    out.extend_from_slice(&243u16.to_le_bytes()); // EM_RISCV
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&entry.to_le_bytes());
    out.extend_from_slice(&phoff.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes()); // e_shoff
    out.extend_from_slice(&0u32.to_le_bytes()); // e_flags
    out.extend_from_slice(&64u16.to_le_bytes()); // e_ehsize
    out.extend_from_slice(&56u16.to_le_bytes()); // e_phentsize
    out.extend_from_slice(&(loads.len() as u16).to_le_bytes());
    out.extend_from_slice(&64u16.to_le_bytes()); // e_shentsize
    out.extend_from_slice(&0u16.to_le_bytes()); // e_shnum
    out.extend_from_slice(&0u16.to_le_bytes()); // e_shstrndx
    assert_eq!(out.len(), 64);
    for l in loads {
        out.extend_from_slice(&1u32.to_le_bytes()); // PT_LOAD
        out.extend_from_slice(&l.flags.to_le_bytes());
        out.extend_from_slice(&data_off.to_le_bytes());
        out.extend_from_slice(&l.vaddr.to_le_bytes());
        out.extend_from_slice(&l.vaddr.to_le_bytes()); // p_paddr
        out.extend_from_slice(&(l.bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(&l.memsz.to_le_bytes());
        out.extend_from_slice(&0x1000u64.to_le_bytes());
        data_off += l.bytes.len() as u64;
    }
    for l in loads {
        out.extend_from_slice(&l.bytes);
    }
    out
}

/// Writes `bytes` to `dir/name` and returns the path as a string.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

/// A field of this process's /proc/self/status in KiB ("VmRSS:", "VmHWM:").
pub fn status_kib(key: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap()
}

/// This process's resident memory in bytes.
pub fn rss_bytes() -> u64 {
    status_kib("VmRSS:") << 10
}

/// For a test that measures this process (its resident memory): the other
/// tests of its binary run as threads of the same process, and what they
/// allocate would count in. True in a child process of this test binary
/// that runs the test `test` of `module` (as `module_path!()` names it)
/// alone, where the test goes on; anywhere else, runs that child, fails
/// unless the test passed there, and returns false (the caller returns).
pub fn alone(module: &str, test: &str) -> bool {
    const ALONE: &str = "TRAPSCOPE_TEST_ALONE";
    // The harness names a test by its path below the crate.
    let name = match module.split_once("::") {
        Some((_, path)) => format!("{path}::{test}"),
        None => test.to_string(),
    };
    if std::env::var_os(ALONE).is_some_and(|v| v == name.as_str()) {
        return true;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .arg(&name)
        .args([
            "--exact",
            "--include-ignored",
            "--test-threads=1",
            "--nocapture",
        ])
        .env(ALONE, &name)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprint!("{stderr}");
    assert!(
        out.status.success() && stdout.contains("test result: ok. 1 passed"),
        "{name}, alone in a child process: {}\n{stdout}{stderr}",
        out.status
    );
    false
}
