//! A snapshot's vector state is checked at load (snapshot/vstate.rs), in
//! one line naming the field, exit 2: vl ≤ VLMAX(vtype), vstart < VLEN,
//! vill ⇒ vl = 0 and no other vtype bit, no reserved vtype bit (V spec 1.0
//! §3.4, §3.7). A vl past VLMAX used to reach the V unit, which indexed
//! past v31 inside an emulator callback: the process aborted.

use crate::snapshot_util;

use std::path::Path;
use std::process::{Command, Output};

use snapshot_util::{manifest, scenario, scratch, vector, write_snapshot};
use trapscope::snapshot::format::{Csr, Hex};

/// `vadd.vv v1, v2, v3` (OP-V, funct3 OPIVV, vm = 1: funct6 0 | vm << 25 |
/// vs2 << 20 | vs1 << 15 | vd << 7 | 0x57), then the test device's
/// poweroff as `snapshot_util::poweroff_ram` has it.
fn vadd_then_poweroff() -> Vec<u8> {
    let code: [u32; 6] = [
        1 << 25 | 2 << 20 | 3 << 15 | 1 << 7 | 0x57,
        0x0010_02b7,
        0x0000_5337,
        0x5553_0313,
        0x0062_a023,
        0x0000_006f,
    ];
    let mut ram = vec![0u8; 4096];
    for (i, w) in code.iter().enumerate() {
        ram[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    ram
}

fn run(p: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", &p.to_string_lossy(), "--core", "x60"])
        .output()
        .unwrap()
}

#[test]
fn vector_state_past_its_bounds_is_refused_at_load_naming_the_field() {
    let dir = scratch("vstate");
    let ram = vadd_then_poweroff();
    let mut m = manifest(&ram);
    m.qemu.isa = "rv64imafdcv_zicsr_zifencei".into();
    // mstatus.VS = Initial (bits 10:9 = 1), so the vadd runs.
    m.hart.csrs = vec![Csr {
        csr: Hex(0x300),
        name: "mstatus".into(),
        value: Hex(1 << 9),
    }];
    let p = scenario(&dir, "snap", "");
    // x60: VLEN 256. vtype 0 is e8, m1: VLMAX = 256 / 8 = 32.
    let mut v = vector(256);
    let ok = |v: &trapscope::snapshot::format::VectorDump| {
        let mut m = m.clone();
        m.hart.vector = Some(v.clone());
        write_snapshot(&dir.join("snap"), &m, &ram);
        run(&p)
    };
    v.vl = Hex(32);
    let out = ok(&v);
    assert_eq!(
        out.status.code(),
        Some(0),
        "vl = VLMAX runs: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cases: [(u64, u64, u64, &str); 6] = [
        // (vl, vtype, vstart, what the line says)
        (33, 0, 0, "hart.vector.vl = 33 is more than VLMAX = 32"),
        // e32, mf2 (vsew = 2 in bits 5:3, vlmul = 7 in bits 2:0) at VLEN
        // 256: VLMAX = 256 / 32 / 2 = 4.
        (
            100_000,
            0b010_111,
            0,
            "hart.vector.vl = 100000 is more than VLMAX = 4",
        ),
        (
            0,
            0,
            256,
            "hart.vector.vstart = 256 is not below VLEN = 256",
        ),
        (5, 1 << 63, 0, "hart.vector.vl = 5 while vtype.vill is set"),
        (
            0,
            1 << 63 | 3,
            0,
            "hart.vector.vtype = 0x8000000000000003 has vill set",
        ),
        (0, 1 << 8, 0, "hart.vector.vtype = 0x100 sets reserved bits"),
    ];
    for (vl, vtype, vstart, says) in cases {
        let mut v = vector(256);
        v.vl = Hex(vl);
        v.vtype = Hex(vtype);
        v.vstart = Hex(vstart);
        let out = ok(&v);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{says}: {err}");
        assert_eq!(err.lines().count(), 1, "{says}: {err}");
        assert!(err.contains("snapshot.json"), "{err}");
        assert!(err.contains(says), "want {says:?}: {err}");
    }
    // vill after a kernel's discard: vl 0, the state QEMU holds.
    let mut v = vector(256);
    v.vtype = Hex(1 << 63);
    let out = ok(&v);
    // The vadd then raises illegal-instruction; with no handler the run
    // ends as a guest fault, not at load.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("hart.vector"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
