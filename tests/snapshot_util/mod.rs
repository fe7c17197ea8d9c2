//! Helpers for the snapshot tests: snapshot directories made by hand (no
//! QEMU), ELFs with a GNU build id made with binutils, and the skip rules
//! for QEMU and binutils.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use trapscope::snapshot::format::{
    self, HartDump, Hex, Init, Kernel, Manifest, PlatformDump, QemuInfo, Ram, Snapshot, VectorDump,
};

/// Where QEMU virt's RAM starts, and the hand-made snapshots with it.
pub const BASE: u64 = 0x8000_0000;

/// One page of RAM whose first instructions power the machine off through
/// QEMU virt's test device (0x10_0000, 0x5555 = pass: guest-asm/README.md):
/// `lui t0, 0x100; lui t1, 0x5; addi t1, t1, 0x555; sw t1, 0(t0); j .`,
/// encoded by hand from the base ISA's U-, I- and S-type formats.
pub fn poweroff_ram() -> Vec<u8> {
    let code: [u32; 5] = [
        0x0010_02b7, // lui  t0, 0x100      (rd=5, U-type)
        0x0000_5337, // lui  t1, 0x5        (rd=6)
        0x5553_0313, // addi t1, t1, 0x555  (rd=rs1=6)
        0x0062_a023, // sw   t1, 0(t0)      (rs1=5, rs2=6, funct3=2)
        0x0000_006f, // jal  x0, 0          (j .)
    ];
    let mut ram = vec![0u8; 4096];
    for (i, w) in code.iter().enumerate() {
        ram[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    ram
}

/// A valid manifest for `ram` at BASE: the hart in M-mode at BASE, no
/// CSRs, no vector state, QEMU's ISA what trapscope runs.
pub fn manifest(ram: &[u8]) -> Manifest {
    Manifest {
        format: format::FORMAT.into(),
        version: format::VERSION,
        made_by: "trapscope (test)".into(),
        ram: Ram {
            base: Hex(BASE),
            size: Hex(ram.len() as u64),
            fnv1a64: Hex(format::fnv1a64(ram)),
        },
        hart: HartDump {
            pc: Hex(BASE),
            privilege: "M".into(),
            x: vec![Hex(0); 32],
            f: Vec::new(),
            fcsr: None,
            csrs: Vec::new(),
            vector: None,
        },
        platform: PlatformDump {
            mtime: Hex(0),
            mtimecmp: Hex(u64::MAX),
            msip: Hex(0),
        },
        kernel: Kernel {
            image: "Image".into(),
            vmlinux: None,
            build_id: None,
            append: String::new(),
        },
        init: Init {
            name: "getppid".into(),
            ecall: Hex(0x1_0000),
            loop_top: Hex(0x1_0000),
            at: 1,
            counter: None,
            tick_handler: None,
            sources: Vec::new(),
        },
        qemu: QemuInfo {
            version: "7.2.22".into(),
            cpu: "rv64".into(),
            isa: "rv64imafdc_zicsr_zifencei".into(),
            command_line: String::new(),
            reproducible: false,
        },
    }
}

/// Vector state at `vlen` bits: v0..v31 all zero.
pub fn vector(vlen: u32) -> VectorDump {
    VectorDump {
        vlen,
        v: vec!["00".repeat(vlen as usize / 8); 32],
        vl: Hex(0),
        vtype: Hex(0),
        vstart: Hex(0),
        vcsr: Hex(0),
    }
}

/// Writes the snapshot `dir` (manifest, RAM, and trapscope's getppid init
/// as its init.elf).
pub fn write_snapshot(dir: &Path, m: &Manifest, ram: &[u8]) {
    Snapshot::write(dir, m, ram).unwrap();
    let init = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/init/getppid.elf");
    std::fs::copy(init, dir.join(format::INIT_FILE)).unwrap();
}

/// A fresh scratch directory for this test process and `tag`.
pub fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("trapscope-snap-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `dir/s.toml`: a scenario whose one variant names `snapshot` on
/// line 5 (its value at column 12) and `extra` lines after it (a
/// `vmlinux = ...` as the first of them sits on line 6, value at column 11).
pub fn scenario(dir: &Path, snapshot: &str, extra: &str) -> PathBuf {
    let p = dir.join("s.toml");
    std::fs::write(
        &p,
        format!(
            "title = \"t\"\npatch = \"p\"\n[[variants]]\nname = \"snap\"\nsnapshot = \"{snapshot}\"\n{extra}"
        ),
    )
    .unwrap();
    p
}

/// QEMU's path when it is found; else prints why and returns None, or
/// fails under TRAPSCOPE_REQUIRE_QEMU=1 (CI). Shared by every QEMU test.
/// `trapscope snapshot --elf` of the Sv39 minikernel, stopped before the
/// `at`-th user ecall (QEMU's defaults of the snapshot tests).
pub fn minikernel_sv39(at: u64) -> trapscope::qemu::take::Config {
    use trapscope::qemu::take::{Config, Guest};
    Config {
        guest: Guest::Elf(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel-sv39.elf"),
        ),
        at,
        ecall_symbol: "user_syscall_ecall".into(),
        loop_symbol: "bench_timed_loop".into(),
        vlen: None,
        mem_mib: 128,
        append: String::new(),
        boot_timeout: std::time::Duration::from_secs(60),
        ticks: false,
        reproducible: true,
    }
}

pub fn qemu_path_or_skip() -> Option<PathBuf> {
    match trapscope::qemu::find_binary() {
        Ok(p) => Some(p),
        Err(e) => {
            assert!(
                std::env::var_os("TRAPSCOPE_REQUIRE_QEMU").is_none(),
                "TRAPSCOPE_REQUIRE_QEMU is set but {e}"
            );
            eprintln!("skipping: {e}");
            None
        }
    }
}

/// True when qemu-system-riscv64 is found (see `qemu_path_or_skip`).
pub fn qemu_or_skip() -> bool {
    qemu_path_or_skip().is_some()
}

/// True when riscv64-linux-gnu-as and -ld run; else prints why and returns
/// false, or fails under TRAPSCOPE_REQUIRE_GUEST_AS=1 (CI).
pub fn binutils_or_skip() -> bool {
    let ok = ["riscv64-linux-gnu-as", "riscv64-linux-gnu-ld"]
        .iter()
        .all(|t| Command::new(t).arg("--version").output().is_ok());
    if !ok {
        assert!(
            std::env::var_os("TRAPSCOPE_REQUIRE_GUEST_AS").is_none(),
            "TRAPSCOPE_REQUIRE_GUEST_AS is set but riscv64-linux-gnu binutils are missing"
        );
        eprintln!("skipping: riscv64-linux-gnu-as/-ld not installed (binutils-riscv64-linux-gnu)");
    }
    ok
}

/// A small RISC-V ELF standing in for a vmlinux: one function,
/// `handle_exception`, linked at 0x8020_0000, with the GNU build id `id`
/// (hex, given to `ld --build-id=0x…`), or none.
pub fn vmlinux(dir: &Path, name: &str, id: Option<&str>) -> PathBuf {
    let src = dir.join(format!("{name}.S"));
    let obj = dir.join(format!("{name}.o"));
    let out = dir.join(name);
    std::fs::write(
        &src,
        "\t.text\n\t.globl handle_exception\n\t.type handle_exception, @function\nhandle_exception:\n\tnop\n\tret\n\t.size handle_exception, .-handle_exception\n",
    )
    .unwrap();
    let st = Command::new("riscv64-linux-gnu-as")
        .arg("-o")
        .arg(&obj)
        .arg(&src)
        .status()
        .unwrap();
    assert!(st.success(), "as failed");
    let build_id = match id {
        Some(h) => format!("--build-id=0x{h}"),
        None => "--build-id=none".into(),
    };
    let st = Command::new("riscv64-linux-gnu-ld")
        .args([
            &build_id,
            "-Ttext=0x80200000",
            "-e",
            "handle_exception",
            "-o",
        ])
        .arg(&out)
        .arg(&obj)
        .status()
        .unwrap();
    assert!(st.success(), "ld failed");
    out
}

/// Whether a live process's command line contains `needle` (for "QEMU
/// must not outlive trapscope": QEMU's command line holds the scratch
/// directory named after trapscope's pid).
pub fn process_with(needle: &str) -> Option<String> {
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let text = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if text.contains(needle) {
            return Some(text);
        }
    }
    None
}

/// Waits for `child`, killing it and failing after `limit`.
pub fn finish(
    mut child: std::process::Child,
    limit: std::time::Duration,
    what: &str,
) -> std::process::Output {
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{what}: still running after {limit:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// For the tests that need a real kernel (`TRAPSCOPE_LINUX=DIR`, DIR
/// holding `Image` and `vmlinux`): a fresh scratch directory named after
/// `what`, and the two files; None (the test skips) without QEMU.
pub fn linux_kernel(what: &str) -> Option<(PathBuf, PathBuf, PathBuf)> {
    let k = std::env::var_os("TRAPSCOPE_LINUX")
        .map(PathBuf::from)
        .expect("set TRAPSCOPE_LINUX=DIR (DIR/Image, DIR/vmlinux) to check a real kernel");
    if !qemu_or_skip() {
        return None;
    }
    let dir = std::env::temp_dir().join(format!("trapscope-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Some((dir, k.join("Image"), k.join("vmlinux")))
}
