//! vsetvli / vsetivli / vsetvl (V spec 1.0 §6) and vtype.vill (§3.4.4).

use super::super::{Effect, VClass, VTrap, VUnit};
use super::{A0, A1, T0, TestHost, ok, run};

const VSETVLI_T0_A0_E8_M8: u32 = 0x003572d7; // vsetvli t0, a0, e8, m8, tu, mu
const VSETVLI_T0_A0_E8_M8_TA_MA: u32 = 0x0c3572d7; // vsetvli t0, a0, e8, m8, ta, ma
const VSETVLI_T0_A0_E8_MF4: u32 = 0x006572d7; // vsetvli t0, a0, e8, mf4, tu, mu
const VSETVLI_T0_A0_E8_MF8: u32 = 0x005572d7; // vsetvli t0, a0, e8, mf8, tu, mu
const VSETVLI_A1_X0_E16_M2: u32 = 0x009075d7; // vsetvli a1, zero, e16, m2, tu, mu
const VSETVLI_X0_X0_E32_M1: u32 = 0x01007057; // vsetvli zero, zero, e32, m1, tu, mu
const VSETIVLI_X0_1_E32_M1: u32 = 0xc100f057; // vsetivli zero, 1, e32, m1, tu, mu
const VSETIVLI_A0_31_E64_MF2: u32 = 0xc5fff557; // vsetivli a0, 31, e64, mf2, ta, mu
const VSETIVLI_A0_31_E32_MF2: u32 = 0xc57ff557; // vsetivli a0, 31, e32, mf2, ta, mu
const VSETVL_T0_A0_A1: u32 = 0x80b572d7; // vsetvl t0, a0, a1
const VADD_VV: u32 = 0x030c0457; // vadd.vv v8, v16, v24

/// vtype.vill (bit XLEN-1) alone: what an unsupported vtype leaves (§3.4.4).
const VILL: u64 = 1 << 63;

fn unit() -> (VUnit, TestHost) {
    (VUnit::new(512), TestHost::new())
}

#[test]
fn vsetvli_e8_m8_caps_at_vlmax() {
    let (mut u, mut h) = unit();
    // VLMAX = LMUL·VLEN/SEW = 8·512/8 = 512; AVL 1000 > 512 → vl = 512.
    h.x[A0] = 1000;
    let e = ok(&mut u, &mut h, VSETVLI_T0_A0_E8_M8);
    assert_eq!((u.vl, h.x[T0]), (512, 512));
    // vtype: vlmul m8 = 0b011, vsew e8 = 0b000, vta = vma = 0.
    assert_eq!(u.vtype, 0b000_011);
    let config = Effect {
        dirties: true,
        written: 0,
        class: VClass::Config,
    };
    assert_eq!(e, config);
    // AVL 100 ≤ 512 → vl = AVL.
    h.x[A0] = 100;
    ok(&mut u, &mut h, VSETVLI_T0_A0_E8_M8_TA_MA);
    assert_eq!((u.vl, h.x[T0]), (100, 100));
    // ta (bit 6) and ma (bit 7) are kept: 0xc0 | 0b011.
    assert_eq!(u.vtype, 0xc3);
}

#[test]
fn vsetivli_takes_the_immediate_avl() {
    let (mut u, mut h) = unit();
    // AVL = 1 ≤ VLMAX = 512/32 = 16 → vl = 1; vsew e32 = 0b010 → vtype 0x10.
    ok(&mut u, &mut h, VSETIVLI_X0_1_E32_M1);
    assert_eq!((u.vl, u.vtype), (1, 0x10));
    assert_eq!(h.x, [0; 32], "rd = x0 writes no register");
    // e32, mf2: VLMAX = 512/2/32 = 8, so AVL 31 gives vl = a0 = 8.
    ok(&mut u, &mut h, VSETIVLI_A0_31_E32_MF2);
    assert_eq!((u.vl, h.x[A0]), (8, 8));
}

#[test]
fn rs1_x0_with_rd_gives_vlmax() {
    let (mut u, mut h) = unit();
    h.x[A1] = 7;
    // rs1 = x0, rd = a1: AVL = ~0 → vl = VLMAX = 2·512/16 = 64 (§6.2).
    ok(&mut u, &mut h, VSETVLI_A1_X0_E16_M2);
    assert_eq!((u.vl, h.x[A1]), (64, 64));
}

#[test]
fn x0_x0_keeps_vl_when_vlmax_is_unchanged() {
    let (mut u, mut h) = unit();
    // e8, mf4: VLMAX = 512/4/8 = 16; AVL 5 → vl 5.
    h.x[A0] = 5;
    ok(&mut u, &mut h, VSETVLI_T0_A0_E8_MF4);
    assert_eq!(u.vl, 5);
    // e32, m1: VLMAX = 512/32 = 16 as well, so vl stays 5 and vtype changes.
    ok(&mut u, &mut h, VSETVLI_X0_X0_E32_M1);
    assert_eq!((u.vl, u.vtype), (5, 0x10));
}

#[test]
fn x0_x0_with_a_new_vlmax_sets_vill() {
    let (mut u, mut h) = unit();
    h.x[A0] = 1000;
    ok(&mut u, &mut h, VSETVLI_T0_A0_E8_M8); // VLMAX 512
    // e32, m1 has VLMAX 16 ≠ 512: reserved, and trapscope sets vill (§6.2).
    ok(&mut u, &mut h, VSETVLI_X0_X0_E32_M1);
    assert_eq!((u.vtype, u.vl), (VILL, 0));
    // From reset (vill already set) the x0, x0 form is reserved too.
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETVLI_X0_X0_E32_M1);
    assert_eq!((u.vtype, u.vl), (VILL, 0));
}

#[test]
fn vsetvl_with_vill_in_rs2_sets_vill_and_vadd_traps() {
    let (mut u, mut h) = unit();
    h.x[A0] = 1000;
    ok(&mut u, &mut h, VSETVLI_T0_A0_E8_M8);
    // rs2 = bit 63 (what the kernel's vstate discard uses): vill, vl = 0,
    // rd = the new vl = 0.
    h.x[A1] = VILL;
    let e = ok(&mut u, &mut h, VSETVL_T0_A0_A1);
    assert_eq!((u.vtype, u.vl, h.x[T0]), (VILL, 0, 0));
    assert!(e.dirties);
    assert_eq!(
        run(&mut u, &mut h, VADD_VV),
        Err(VTrap::Illegal("vtype.vill is set"))
    );
    // All ones (li a1, -1) has vill and reserved bits set: the same.
    ok(&mut u, &mut h, VSETVLI_T0_A0_E8_M8);
    h.x[A1] = u64::MAX;
    ok(&mut u, &mut h, VSETVL_T0_A0_A1);
    assert_eq!((u.vtype, u.vl), (VILL, 0));
}

#[test]
fn vsetvl_takes_vtype_from_rs2() {
    let (mut u, mut h) = unit();
    // 0xd1 = vma (0x80) | vta (0x40) | vsew e32 (0b010 << 3) | vlmul m2 (1):
    // VLMAX = 2·512/32 = 32, so AVL 1000 → vl 32.
    h.x[A0] = 1000;
    h.x[A1] = 0xd1;
    ok(&mut u, &mut h, VSETVL_T0_A0_A1);
    assert_eq!((u.vtype, u.vl, h.x[T0]), (0xd1, 32, 32));
}

#[test]
fn reserved_vtypes_set_vill() {
    // Each value below must give vtype = vill, vl = 0 (§3.4.4):
    let reserved = [
        0x100 | 0x10, // a reserved bit (8) set beside e32, m1
        1 << 62,      // the top reserved bit
        0b100 << 3,   // vsew = 100: SEW 128 > ELEN = 64
        0b111 << 3,   // vsew = 111
        0b100,        // vlmul = 100, reserved
        0x18 | 0b111, // e64, mf2: SEW 64 > LMUL·ELEN = 32
        0x10 | 0b110, // e32, mf4: 32 > 16
        0x08 | 0b101, // e16, mf8: 16 > 8
    ];
    for vtype in reserved {
        let (mut u, mut h) = unit();
        h.x[A0] = 1000;
        ok(&mut u, &mut h, VSETVLI_T0_A0_E8_M8);
        h.x[A1] = vtype;
        ok(&mut u, &mut h, VSETVL_T0_A0_A1);
        assert_eq!((u.vtype, u.vl, h.x[T0]), (VILL, 0, 0), "vtype {vtype:#x}");
    }
}

#[test]
fn reserved_vtypei_immediates_set_vill() {
    let (mut u, mut h) = unit();
    h.x[A0] = 1000;
    // e64, mf2 from the assembler: 64 > LMUL·ELEN = 32, so a0 = vl = 0.
    ok(&mut u, &mut h, VSETIVLI_A0_31_E64_MF2);
    assert_eq!((u.vtype, u.vl, h.x[A0]), (VILL, 0, 0));
    h.x[A0] = 1000;
    // vsetvli t0, a0 with vtypei 0x20 (vsew 100) (.insn 4, 0x020572d7).
    ok(&mut u, &mut h, 0x020572d7);
    assert_eq!((u.vtype, u.vl), (VILL, 0));
    // vsetvli t0, a0 with vtypei 0x400 (a reserved bit) (.insn 4, 0x400572d7).
    ok(&mut u, &mut h, VSETVLI_T0_A0_E8_M8);
    ok(&mut u, &mut h, 0x400572d7);
    assert_eq!((u.vtype, u.vl), (VILL, 0));
}

#[test]
fn smallest_fractional_lmul() {
    let (mut u, mut h) = unit();
    // e8, mf8: VLMAX = 512/8/8 = 8.
    h.x[A0] = 1000;
    ok(&mut u, &mut h, VSETVLI_T0_A0_E8_MF8);
    assert_eq!((u.vl, u.vtype), (8, 0b101));
}

#[test]
fn vset_resets_vstart() {
    let (mut u, mut h) = unit();
    assert!(u.write_csr(0x008, 3));
    ok(&mut u, &mut h, VSETIVLI_X0_1_E32_M1);
    assert_eq!(u.vstart, 0, "§3.7: vset{{i}}vl{{i}} reset vstart too");
}
