//! What a snapshot holds, refused when it does not fit (split from
//! format.rs, whose hand-made snapshots and checks it uses): damaged RAM,
//! named by how it is damaged; ISA extensions trapscope lacks, with how to pin
//! the CPU; vector state at another VLEN or without V; and a vmlinux of
//! another build, naming both build ids.

use super::*;

fn zlib(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

#[test]
fn damaged_ram_is_refused_naming_how() {
    let ram = poweroff_ram();
    let (dir, p) = with_snapshot("ram", &manifest(&ram));
    let file = dir.join("snap").join(format::RAM_FILE);
    let good = std::fs::read(&file).unwrap();
    let mut flipped = ram.clone();
    flipped[100] ^= 1;
    let mut longer = ram.clone();
    longer.extend_from_slice(&[0; 4096]);
    let mut garbage: Vec<u8> = (0..600u32).map(|i| (i * 37 + 11) as u8).collect();
    garbage[0] = 0x13; // CM = 3: not deflate, so not a zlib header
    let have = format!("digest {:#x}", format::fnv1a64(&flipped));
    let want = format!("the manifest's {:#x}", format::fnv1a64(&ram));
    let cases: Vec<(Vec<u8>, Vec<&str>)> = vec![
        (
            good[..good.len() / 2].to_vec(),
            vec!["ram.zlib", "truncated", "0x1000 bytes"],
        ),
        (garbage, vec!["ram.zlib", "not a zlib stream"]),
        (Vec::new(), vec!["ram.zlib", "not a zlib stream"]),
        (
            zlib(&longer),
            vec!["ram.zlib", "more than the manifest's 0x1000 bytes"],
        ),
        (
            zlib(&ram[..2048]),
            vec!["ram.zlib", "0x800 bytes, fewer than the manifest's 0x1000"],
        ),
        (
            zlib(&flipped),
            vec!["ram.zlib", &have, &want, "changed or damaged"],
        ),
    ];
    for (bytes, needles) in &cases {
        std::fs::write(&file, bytes).unwrap();
        at(&refused(&p), &p, 5, 12, needles);
    }
    std::fs::remove_file(&file).unwrap();
    at(&refused(&p), &p, 5, 12, &["ram.zlib", "cannot read"]);
    // Put back, it loads again: the refusals were the file's.
    std::fs::write(&file, &good).unwrap();
    Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn extensions_trapscope_lacks_are_refused_with_how_to_pin_the_cpu() {
    let mut m = manifest(&poweroff_ram());
    m.qemu.isa = "rv64imafdch_zicsr_zifencei_zba_zbb_sstc".into();
    let (dir, p) = with_snapshot("isa", &m);
    at(
        &refused(&p),
        &p,
        5,
        12,
        &[
            "extensions trapscope cannot run: h, zba, zbb, sstc",
            "rv64imafdch_zicsr_zifencei_zba_zbb_sstc",
            "take it again with `trapscope snapshot`",
            "pins the QEMU CPU",
            "h=off,zba=off,zbb=off,sstc=off",
        ],
    );
    // V is trapscope's when the snapshot holds vector state, and only then.
    let mut m = manifest(&poweroff_ram());
    m.qemu.isa = "rv64imafdcv_zicsr_zifencei_zve32f_zve64f_zvl128b".into();
    let (dir2, p) = with_snapshot("isa-v", &m);
    at(
        &refused(&p),
        &p,
        5,
        12,
        &["cannot run: v, zve32f, zve64f, zvl128b"],
    );
    m.hart.vector = Some(vector(128));
    write_snapshot(&dir2.join("snap"), &m, &poweroff_ram());
    Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}

/// `dir/s.toml` naming snapshot `snap`, with `top` lines before
/// [[variants]] (from line 3) and `extra` lines after the variant's
/// `snapshot` (from line 7 when `top` is one line).
fn vscenario(dir: &Path, top: &str, extra: &str) -> std::path::PathBuf {
    let p = dir.join("s.toml");
    std::fs::write(
        &p,
        format!("title = \"t\"\npatch = \"p\"\n{top}[[variants]]\nname = \"snap\"\nsnapshot = \"snap\"\n{extra}"),
    )
    .unwrap();
    p
}

/// The error building the variant's machine with `core` given as
/// `--core` would (the scenario itself names none).
fn machine_error(p: &Path, core: Option<&str>) -> String {
    let s = Scenario::load(p).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOpts {
        core: core.map(|c| std::rc::Rc::new(trapscope::cost::Profile::find(c).unwrap())),
        ..RunOpts::default()
    };
    match build_machine(&s, &s.variants[0], &opts) {
        Ok(_) => panic!("the machine was built"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn vector_state_at_another_vlen_or_without_v_is_refused_naming_both() {
    let mut m = manifest(&poweroff_ram());
    m.qemu.isa = "rv64imafdcv_zicsr_zifencei".into();
    m.hart.vector = Some(vector(256));
    let dir = scratch("vlen");
    write_snapshot(&dir.join("snap"), &m, &poweroff_ram());
    // x280: V 1.0 at VLEN 512; u74: no V; x60: VLEN 256 (assets/cores/).
    // In the scenario: refused at the core's entry (line 3, column 10).
    let p = vscenario(&dir, "cores = [\"x280\"]\n", "");
    at(
        &refused(&p),
        &p,
        3,
        10,
        &[
            "core 'x280' has VLEN 512",
            "variant 'snap'",
            "taken at VLEN 256",
        ],
    );
    let p = vscenario(&dir, "cores = [\"x60\", \"u74\"]\n", "");
    at(
        &refused(&p),
        &p,
        3,
        17,
        &["core 'u74' has no V 1.0 unit", "variant 'snap'", "VLEN 256"],
    );
    // A variant's own core: at its `core = ...` (line 7, column 8).
    let p = vscenario(&dir, "cores = [\"x60\"]\n", "core = \"x280\"\n");
    at(
        &refused(&p),
        &p,
        7,
        8,
        &["core 'x280' has VLEN 512", "VLEN 256"],
    );
    // x60 fits: the machine is built.
    let p = vscenario(&dir, "cores = [\"x60\"]\n", "");
    let s = Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
    build_machine(&s, &s.variants[0], &RunOpts::default()).unwrap_or_else(|e| panic!("{e}"));
    // A core from the command line, or none: refused when the machine is
    // built, naming the variant, the snapshot, the core and both sides.
    let p = vscenario(&dir, "", "");
    for (core, needles) in [
        (
            Some("x280"),
            ["core x280", "taken at VLEN 256", "VLEN is 512"],
        ),
        (
            Some("u74"),
            ["core u74", "vector state (VLEN 256)", "--core x60"],
        ),
        // x60 is the one shipped profile with V 1.0 at 256 bits
        // (assets/cores/x60.toml: vlen 256; x280 has 512, c910 is
        // XTheadVector): the line names it.
        (None, ["core none", "vector state (VLEN 256)", "--core x60"]),
    ] {
        let e = machine_error(&p, core);
        assert!(e.starts_with("variant 'snap' (snapshot "), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        for n in needles {
            assert!(e.contains(n), "expected {n:?} in: {e}");
        }
        assert!(!e.contains("emulator:"), "no internal prefix: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_vmlinux_of_another_build_is_refused_naming_both_ids() {
    if !snapshot_util::binutils_or_skip() {
        return;
    }
    const SNAP_ID: &str = "11223344556677889900aabbccddeeff00112233";
    const OTHER_ID: &str = "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef";
    let mut m = manifest(&poweroff_ram());
    m.kernel.build_id = Some(SNAP_ID.into());
    let (dir, _) = with_snapshot("buildid", &m);
    let same = snapshot_util::vmlinux(&dir, "vmlinux-same", Some(SNAP_ID));
    let other = snapshot_util::vmlinux(&dir, "vmlinux-other", Some(OTHER_ID));
    let none = snapshot_util::vmlinux(&dir, "vmlinux-none", None);
    // The error points at `vmlinux = ...` (line 6, column 11).
    let p = scenario(&dir, "snap", "vmlinux = \"vmlinux-other\"\n");
    at(
        &refused(&p),
        &p,
        6,
        11,
        &[
            "vmlinux-other",
            &format!("build id {OTHER_ID}"),
            &format!("the snapshot's {SNAP_ID}"),
        ],
    );
    let p = scenario(&dir, "snap", "vmlinux = \"vmlinux-none\"\n");
    at(&refused(&p), &p, 6, 11, &["build id (none)", SNAP_ID]);
    let p = scenario(&dir, "snap", "vmlinux = \"vmlinux-same\"\n");
    let s = Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        s.variants[0].program.symbol("handle_exception").is_some(),
        "the vmlinux's symbols are the variant's"
    );
    // The vmlinux the snapshot recorded, of another build: at `snapshot`.
    m.kernel.vmlinux = Some(other.display().to_string());
    write_snapshot(&dir.join("snap"), &m, &poweroff_ram());
    let p = scenario(&dir, "snap", "");
    at(
        &refused(&p),
        &p,
        5,
        12,
        &[OTHER_ID, SNAP_ID, "the vmlinux this snapshot recorded"],
    );
    // ...or gone: say how to name another.
    m.kernel.vmlinux = Some(dir.join("moved-away").display().to_string());
    write_snapshot(&dir.join("snap"), &m, &poweroff_ram());
    at(
        &refused(&p),
        &p,
        5,
        12,
        &["moved-away", "give the variant vmlinux = \"...\""],
    );
    let _ = (same, none);
    let _ = std::fs::remove_dir_all(&dir);
}
