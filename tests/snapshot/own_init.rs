//! `snapshot --init PATH`: a user's own init, checked before QEMU starts.
//! The refusals need neither QEMU nor a kernel: each is one line, exit 2,
//! before the kernel files are read (`/dev/null` stands for them, and a
//! passing init is refused next for that).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(30);

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/own-init/getppid-c.elf")
}

fn snapshot(init: &str, extra: &[&str]) -> std::process::Output {
    let out = common::scratch("own-init-out").join("snap");
    let mut args = vec![
        "snapshot",
        "--kernel",
        "/dev/null",
        "--vmlinux",
        "/dev/null",
        "--init",
        init,
        "-o",
    ];
    let out = out.to_string_lossy().into_owned();
    args.push(&out);
    args.extend_from_slice(extra);
    common::trapscope_within(&args, LIMIT)
}

/// The example with `patch` applied, in a scratch file.
fn patched(name: &str, patch: impl Fn(&mut Vec<u8>)) -> String {
    let mut b = std::fs::read(example()).unwrap();
    patch(&mut b);
    common::write(
        &common::scratch(&format!("own-init-{name}")),
        &format!("{name}.elf"),
        &b,
    )
}

/// The index-th program header's p_type field (ELF64: e_phoff at 32,
/// 56-byte entries).
fn phdr_type_at(b: &[u8], index: usize) -> usize {
    let phoff = u64::from_le_bytes(b[32..40].try_into().unwrap()) as usize;
    phoff + index * 56
}

#[test]
fn the_example_passes_and_the_kernel_is_checked_next() {
    let e = example().to_string_lossy().into_owned();
    let out = snapshot(&e, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    // Past the init's checks: the kernel Image is what is refused.
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("--init"), "{err}");
    assert!(err.contains("kernel Image"), "{err}");
}

#[test]
fn inits_that_cannot_run_are_refused_in_one_line() {
    // The example's program headers (readelf -l): RISCV_ATTRIBUTES, LOAD,
    // GNU_STACK; the last is the one turned into PT_INTERP / PT_DYNAMIC.
    let b = std::fs::read(example()).unwrap();
    assert_eq!(u16::from_le_bytes([b[56], b[57]]), 3, "e_phnum");
    let stack = phdr_type_at(&b, 2);
    assert_eq!(
        u32::from_le_bytes(b[stack..stack + 4].try_into().unwrap()),
        0x6474_e551,
        "PT_GNU_STACK"
    );
    let cases: Vec<(String, Vec<&str>, &str)> = vec![
        (patched("class32", |b| b[4] = 1), vec![], "32-bit ELF"),
        (patched("msb", |b| b[5] = 2), vec![], "big-endian"),
        (
            patched("x86", |b| b[18..20].copy_from_slice(&62u16.to_le_bytes())),
            vec![],
            "not a RISC-V RV64 ELF",
        ),
        (patched("rel", |b| b[16] = 1), vec![], "ET_REL"),
        (patched("core", |b| b[16] = 4), vec![], "ET_CORE"),
        (
            patched("pie", |b| b[16] = 3),
            vec![],
            "static-pie or dynamic",
        ),
        (
            patched("interp", |b| {
                b[stack..stack + 4].copy_from_slice(&3u32.to_le_bytes())
            }),
            vec![],
            "dynamically linked: it has a program interpreter (PT_INTERP)",
        ),
        (
            patched("dynamic", |b| {
                b[stack..stack + 4].copy_from_slice(&2u32.to_le_bytes())
            }),
            vec![],
            "dynamically linked: it has a dynamic section (PT_DYNAMIC)",
        ),
        (
            example().to_string_lossy().into_owned(),
            vec!["--loop-symbol", "bench_loop"],
            "has no symbol 'bench_loop' (the top of the measured loop",
        ),
        (
            example().to_string_lossy().into_owned(),
            vec!["--ecall-symbol", "mark"],
            "has no symbol 'mark' (the marker instruction",
        ),
        (
            example().to_string_lossy().into_owned(),
            vec!["--loop-symbol", "top", "--ecall-symbol", "mark"],
            "has no symbol 'top' (the top of the measured loop, run once per iteration): put a global label top there, or name another with --loop-symbol; and no symbol 'mark'",
        ),
        (
            // The linker's end-of-bss symbol, past the one loaded segment
            // (0x10000 + 0x102): no instruction there to stop at. Any
            // instruction of the loop would do (not only an ecall).
            example().to_string_lossy().into_owned(),
            vec!["--ecall-symbol", "__BSS_END__"],
            "'__BSS_END__' at 0x11108 lies in no loaded executable segment",
        ),
        (
            // The marker on the loop's top, and not an ecall (loop_top's
            // first instruction is its `ret`): a faulting marker's retry
            // would count as another iteration.
            example().to_string_lossy().into_owned(),
            vec!["--ecall-symbol", "init_loop"],
            "'init_loop' is at the loop's top 'init_loop' (0x100e8) and is not an ecall",
        ),
        ("/dev/zero.elf".to_string(), vec![], "cannot read init ELF"),
        ("./".to_string(), vec![], "only regular files"),
    ];
    for (init, extra, needle) in cases {
        let out = snapshot(&init, &extra);
        common::fails_one_line(&out, 2, &[&format!("--init {init}: "), needle]);
    }
}

/// The committed example is what its build script makes of its source
/// (riscv64-linux-gnu-gcc, Debian's gcc-riscv64-linux-gnu). Without the
/// compiler the test says so and passes, unless
/// TRAPSCOPE_REQUIRE_GUEST_GCC is set (as CI sets it).
#[test]
fn the_committed_example_is_a_fresh_build_of_its_source() {
    let have = Command::new("riscv64-linux-gnu-gcc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(
            std::env::var_os("TRAPSCOPE_REQUIRE_GUEST_GCC").is_none(),
            "TRAPSCOPE_REQUIRE_GUEST_GCC is set but riscv64-linux-gnu-gcc is missing (apt-get install gcc-riscv64-linux-gnu)"
        );
        eprintln!("skipped: no riscv64-linux-gnu-gcc (apt-get install gcc-riscv64-linux-gnu)");
        return;
    }
    let out = common::scratch("own-init-build").join("fresh.elf");
    let st = Command::new("sh")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/own-init/build.sh"))
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success());
    assert!(
        std::fs::read(&out).unwrap() == std::fs::read(example()).unwrap(),
        "examples/own-init/getppid-c.elf differs from a fresh build: run examples/own-init/build.sh"
    );
}
