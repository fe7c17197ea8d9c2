//! Bad input to snapshots that is refused before any QEMU runs (split from
//! errors.rs, whose helpers it uses): a scenario naming a bad snapshot, at
//! `file:line:col`, and `trapscope snapshot`'s checks of its arguments, its
//! Image and its vmlinux; each one line and exit 2.

use super::*;

// ---- scenarios naming snapshots: `run` refuses them at file:line:col ----

#[test]
fn run_refuses_a_bad_snapshot_variant_in_one_located_line() {
    let dir = scratch("cli-run");
    let ram = poweroff_ram();
    let mut m = manifest(&ram);
    write_snapshot(&dir.join("snap"), &m, &ram);
    let p = scenario(&dir, "snap", "");
    let loc = format!("{}:5:12: ", p.display());
    // Intact, it runs (the poweroff is exit 0).
    let out = trapscope(&["run", &s(&p)], &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    m.version = 99;
    write_snapshot(&dir.join("snap"), &m, &ram);
    one_line(
        &trapscope(&["run", &s(&p)], &[]),
        2,
        &[
            &loc,
            "snapshot format version 99",
            "take the snapshot again",
        ],
    );
    m.version = trapscope::snapshot::format::VERSION;
    m.qemu.isa = "rv64imafdch_zicsr_zifencei_zba_zbb_sstc".into();
    write_snapshot(&dir.join("snap"), &m, &ram);
    one_line(
        &trapscope(&["check", &s(&p)], &[]),
        2,
        &[&loc, "h, zba, zbb, sstc", "trapscope snapshot"],
    );
    let elf = root().join(MINIKERNEL);
    let p2 = scenario(&dir, &s(&elf), "");
    one_line(
        &trapscope(&["compare", &s(&p2)], &[]),
        2,
        &["s.toml:5:12: ", "a file, not a snapshot directory"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_refuses_vector_state_on_a_core_of_another_vlen_in_one_line() {
    let dir = scratch("cli-vlen");
    let ram = poweroff_ram();
    let mut m = manifest(&ram);
    m.qemu.isa = "rv64imafdcv_zicsr_zifencei".into();
    m.hart.vector = Some(vector(256));
    write_snapshot(&dir.join("snap"), &m, &ram);
    let p = scenario(&dir, "snap", "");
    // --core x280 (VLEN 512), and no core at all (no V unit).
    one_line(
        &trapscope(&["run", &s(&p), "--core", "x280"], &[]),
        2,
        &["variant 'snap'", "core x280", "VLEN 256", "VLEN is 512"],
    );
    one_line(
        &trapscope(&["run", &s(&p)], &[]),
        2,
        &["variant 'snap'", "VLEN 256", "no V unit"],
    );
    // x60 has VLEN 256: the snapshot runs.
    let out = trapscope(&["run", &s(&p), "--core", "x60"], &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- `trapscope snapshot`: refusals before QEMU starts ----

pub(super) fn elf_args<'a>(out: &'a str, ecall: &'a str) -> Vec<&'a str> {
    vec![
        "snapshot",
        "--elf",
        MINIKERNEL,
        "--ecall-symbol",
        ecall,
        "--loop-symbol",
        "bench_timed_loop",
        "-o",
        out,
    ]
}

#[test]
fn snapshot_without_qemu_names_the_package() {
    let dir = scratch("noqemu");
    let out_dir = s(&dir.join("out"));
    let args = elf_args(&out_dir, "user_syscall_ecall");
    let e = one_line(
        &trapscope(&args, &[("TRAPSCOPE_QEMU", "/nonexistent/qemu")]),
        2,
        &["TRAPSCOPE_QEMU=/nonexistent/qemu", "qemu-system-misc"],
    );
    assert!(e.contains("not an executable file"), "{e}");
    // Nor on PATH (an empty directory), TRAPSCOPE_QEMU unset.
    let empty = dir.join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args(&args)
        .env("PATH", &empty)
        .env_remove("TRAPSCOPE_QEMU")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    one_line(
        &out,
        2,
        &[
            "qemu-system-riscv64 not found",
            "apt-get install qemu-system-misc",
        ],
    );
    assert!(
        !dir.join("out").exists(),
        "no output directory is left behind"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn snapshot_refuses_what_is_not_a_risc_v_image() {
    let dir = scratch("image");
    let out_dir = s(&dir.join("out"));
    let random: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    let rnd = dir.join("random.bin");
    std::fs::write(&rnd, &random).unwrap();
    let elf = s(&root().join(MINIKERNEL));
    // An ELF as --kernel: say which file goes where.
    one_line(
        &trapscope(
            &[
                "snapshot",
                "--kernel",
                &elf,
                "--vmlinux",
                &elf,
                "-o",
                &out_dir,
            ],
            &[],
        ),
        2,
        &["an ELF file, not a kernel Image", "--vmlinux"],
    );
    one_line(
        &trapscope(
            &[
                "snapshot",
                "--kernel",
                &s(&rnd),
                "--vmlinux",
                &elf,
                "-o",
                &out_dir,
            ],
            &[],
        ),
        2,
        &["random.bin", "not a RISC-V Linux Image"],
    );
    one_line(
        &trapscope(
            &[
                "snapshot",
                "--kernel",
                &s(&dir.join("absent")),
                "--vmlinux",
                &elf,
                "-o",
                &out_dir,
            ],
            &[],
        ),
        2,
        &["absent", "cannot read kernel Image"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file with the RISC-V Image header's magic (boot-image-header.rst:
/// "RISCV\0\0\0" at 0x30, "RSC\x05" at 0x38), and `tail` after it.
pub(super) fn image(tail: &[u8]) -> Vec<u8> {
    let mut b = vec![0u8; 64];
    b[0x30..0x38].copy_from_slice(b"RISCV\0\0\0");
    b[0x38..0x3c].copy_from_slice(b"RSC\x05");
    b.extend_from_slice(tail);
    b
}

#[test]
fn snapshot_refuses_a_vmlinux_that_is_not_the_images() {
    if !snapshot_util::binutils_or_skip() {
        return;
    }
    const ID: &str = "0123456789abcdef0123456789abcdef01234567";
    let dir = scratch("vmlinux");
    let out_dir = s(&dir.join("out"));
    let vm = snapshot_util::vmlinux(&dir, "vmlinux", Some(ID));
    let bare = snapshot_util::vmlinux(&dir, "vmlinux-noid", None);
    let img = dir.join("Image");
    std::fs::write(&img, image(&[0xaa; 256])).unwrap();
    let run = |vmlinux: &Path| {
        trapscope(
            &[
                "snapshot",
                "--kernel",
                &s(&img),
                "--vmlinux",
                &s(vmlinux),
                "-o",
                &out_dir,
            ],
            &[("TRAPSCOPE_QEMU", "/nonexistent/qemu")],
        )
    };
    one_line(
        &run(&vm),
        2,
        &[
            &format!("build id {ID}"),
            "not in this Image",
            "does not match",
        ],
    );
    one_line(&run(&bare), 2, &["vmlinux-noid", "has no GNU build id"]);
    let junk = dir.join("junk");
    std::fs::write(&junk, b"not an ELF at all").unwrap();
    one_line(&run(&junk), 2, &["junk"]);
    // With the id inside the Image the check passes: the next refusal is
    // the missing QEMU (so the ones above were the vmlinux's).
    let raw: Vec<u8> = (0..ID.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&ID[i..i + 2], 16).unwrap())
        .collect();
    std::fs::write(&img, image(&raw)).unwrap();
    one_line(&run(&vm), 2, &["TRAPSCOPE_QEMU=/nonexistent/qemu"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn snapshot_refuses_bad_options_in_one_line() {
    let dir = scratch("opts");
    let out_dir = s(&dir.join("out"));
    let no_qemu = [("TRAPSCOPE_QEMU", "/nonexistent/qemu")];
    one_line(
        &trapscope(&elf_args(&out_dir, "NOT_A_SYMBOL"), &no_qemu),
        2,
        &["minikernel-sv39.elf", "has no symbol 'NOT_A_SYMBOL'"],
    );
    let mut args = elf_args(&out_dir, "user_syscall_ecall");
    args.extend(["--at", "0"]);
    one_line(&trapscope(&args, &no_qemu), 2, &["--at must be at least 1"]);
    // Guest RAM: a snapshot holds 1 to 2047 MiB (snapshot/format/check.rs:
    // the emulator copies at most 2^31 - 1 bytes at once, so 2 GiB would be
    // taken and then fail to load).
    for mem in ["0", "2048", "4096"] {
        let mut args = elf_args(&out_dir, "user_syscall_ecall");
        args.extend(["--mem", mem]);
        one_line(
            &trapscope(&args, &no_qemu),
            2,
            &[&format!("--mem {mem}"), "from 1 to 2047"],
        );
    }
    let mut args = elf_args(&out_dir, "user_syscall_ecall");
    args.extend(["--core", "nope"]);
    one_line(&trapscope(&args, &no_qemu), 2, &["unknown core 'nope'"]);
    one_line(
        &trapscope(
            &[
                "snapshot",
                "--elf",
                "assets",
                "--ecall-symbol",
                "x",
                "--loop-symbol",
                "y",
                "-o",
                &out_dir,
            ],
            &no_qemu,
        ),
        2,
        &["assets: the guest ELF is a directory"],
    );
    let elf = s(&root().join(MINIKERNEL));
    let linux = |init: &str| {
        trapscope(
            &[
                "snapshot",
                "--kernel",
                &elf,
                "--vmlinux",
                &elf,
                "--init",
                init,
                "-o",
                &out_dir,
            ],
            &no_qemu,
        )
    };
    one_line(
        &linux("bogus"),
        2,
        &["--init bogus", "getppid, vector-v1, vsetvli"],
    );
    for v in ["vector-v1", "vsetvli"] {
        one_line(&linux(v), 2, &[v, "--vlen"]);
    }
    // An output directory that cannot be made, or is a file.
    let file = dir.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    for (o, why) in [
        (file.join("sub"), "cannot create the directory"),
        (file.clone(), "exists and is not a directory"),
    ] {
        one_line(
            &trapscope(&elf_args(&s(&o), "user_syscall_ecall"), &no_qemu),
            2,
            &[&format!("-o {}", o.display()), why],
        );
    }
    assert!(!dir.join("out").exists(), "nothing was written");
    let _ = std::fs::remove_dir_all(&dir);
}
