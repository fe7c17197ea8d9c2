//! Moves and integer arithmetic: vmv.v.* (§11.16), vadd/vsub (§11.1),
//! vand/vor/vxor (§11.5), vid.v (§15.9), vmv.x.s / vmv.s.x (§16.1).

use super::super::{Effect, VClass, VTrap, VUnit};
use super::{A0, TestHost, elem, fill, ok, run};

const VSETVLI_T0_X0_E8_M8_TA_MA: u32 = 0x0c3072d7; // vsetvli t0, zero, e8, m8, ta, ma
const VSETVLI_T0_A0_E8_MF2: u32 = 0x007572d7; // vsetvli t0, a0, e8, mf2, tu, mu
const VSETVLI_T0_A0_E8_M2: u32 = 0x001572d7; // vsetvli t0, a0, e8, m2, tu, mu
const VSETVLI_T0_A0_E16_M1: u32 = 0x008572d7; // vsetvli t0, a0, e16, m1, tu, mu
const VSETVLI_T0_A0_E32_M2: u32 = 0x011572d7; // vsetvli t0, a0, e32, m2, tu, mu
const VSETIVLI_X0_4_E16_M1: u32 = 0xc0827057; // vsetivli zero, 4, e16, m1, tu, mu
const VSETIVLI_X0_0_E16_M1: u32 = 0xc0807057; // vsetivli zero, 0, e16, m1, tu, mu
const VSETIVLI_X0_5_E32_M1: u32 = 0xc102f057; // vsetivli zero, 5, e32, m1, tu, mu
const VSETIVLI_X0_8_E8_M1: u32 = 0xc0047057; // vsetivli zero, 8, e8, m1, tu, mu
const VSETIVLI_X0_2_E64_M1: u32 = 0xc1817057; // vsetivli zero, 2, e64, m1, tu, mu
const VMV_V_I_V0_M1: u32 = 0x5e0fb057; // vmv.v.i v0, -1
const VMV_V_I_V8_15: u32 = 0x5e07b457; // vmv.v.i v8, 15
const VMV_V_I_V16_M16: u32 = 0x5e083857; // vmv.v.i v16, -16
const VMV_V_I_V3_1: u32 = 0x5e00b1d7; // vmv.v.i v3, 1
const VMV_V_X_V8_A0: u32 = 0x5e054457; // vmv.v.x v8, a0
const VMV_V_V_V16_V8: u32 = 0x5e040857; // vmv.v.v v16, v8
const VMV_X_S_A0_V8: u32 = 0x42802557; // vmv.x.s a0, v8
const VMV_S_X_V8_A0: u32 = 0x42056457; // vmv.s.x v8, a0
const VID_V8: u32 = 0x5208a457; // vid.v v8
const VADD_VV: u32 = 0x030c0457; // vadd.vv v8, v16, v24
const VADD_VX: u32 = 0x03054457; // vadd.vx v8, v16, a0
const VADD_VI_M16: u32 = 0x03083457; // vadd.vi v8, v16, -16
const VADD_VV_V9: u32 = 0x030c04d7; // vadd.vv v9, v16, v24
const VSUB_VV: u32 = 0x0b0c0457; // vsub.vv v8, v16, v24
const VSUB_VX: u32 = 0x0b054457; // vsub.vx v8, v16, a0
const VAND_VI_7: u32 = 0x2703b457; // vand.vi v8, v16, 7
const VOR_VX: u32 = 0x2b054457; // vor.vx v8, v16, a0
const VXOR_VI_M1: u32 = 0x2f0fb457; // vxor.vi v8, v16, -1
const VXOR_VV: u32 = 0x2f0c0457; // vxor.vv v8, v16, v24

fn unit() -> (VUnit, TestHost) {
    (VUnit::new(512), TestHost::new())
}

#[test]
fn vmv_v_i_fills_a_whole_m8_group() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETVLI_T0_X0_E8_M8_TA_MA); // vl = VLMAX = 512
    let e = ok(&mut u, &mut h, VMV_V_I_V0_M1);
    // 512 elements of 1 byte = 8 registers of 64 bytes, v0..v7, all 0xff.
    assert!(u.regs[..8 * 64].iter().all(|b| *b == 0xff));
    assert!(u.regs[8 * 64..].iter().all(|b| *b == 0), "v8.. untouched");
    let arith = Effect {
        dirties: true,
        written: 0xff,
        class: VClass::Arith { lmul_x8: 64 },
    };
    assert_eq!(e, arith);
}

#[test]
fn tail_is_left_undisturbed() {
    let (mut u, mut h) = unit();
    h.x[A0] = 3;
    ok(&mut u, &mut h, VSETVLI_T0_A0_E16_M1); // vl = 3 of VLMAX 32
    fill(&mut u, 8, 0xab);
    ok(&mut u, &mut h, VMV_V_I_V8_15);
    // Elements 0..3 = 15 = 0x000f; bytes 6..64 (elements 3..32) stay 0xab.
    assert_eq!(&u.reg(8)[..6], &[0x0f, 0, 0x0f, 0, 0x0f, 0]);
    assert!(u.reg(8)[6..].iter().all(|b| *b == 0xab));
}

#[test]
fn vadd_vx_wraps_at_sew_16() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETIVLI_X0_4_E16_M1); // vl = 4
    fill(&mut u, 8, 0x55);
    ok(&mut u, &mut h, VMV_V_I_V16_M16); // -16 at SEW 16 = 0xfff0
    // Only the low 16 bits of x[rs1] count: 0x1_0020 → 0x0020.
    // 0xfff0 + 0x0020 = 0x1_0010 → 0x0010 modulo 2^16.
    h.x[A0] = 0x1_0020;
    let e = ok(&mut u, &mut h, VADD_VX);
    for i in 0..4 {
        assert_eq!(elem(&u, 8, i, 2), 0x0010, "element {i}");
    }
    assert_eq!(elem(&u, 8, 4, 2), 0x5555, "tail element 4 undisturbed");
    assert_eq!(e.written, 1 << 8);
    assert_eq!(e.class, VClass::Arith { lmul_x8: 8 });
    // vadd.vi with -16: 0xfff0 + 0xfff0 = 0x1_ffe0 → 0xffe0.
    ok(&mut u, &mut h, VADD_VI_M16);
    assert_eq!(elem(&u, 8, 0, 2), 0xffe0);
}

#[test]
fn vector_vector_forms_at_sew_32_lmul_2() {
    let (mut u, mut h) = unit();
    h.x[A0] = 20;
    ok(&mut u, &mut h, VSETVLI_T0_A0_E32_M2); // VLMAX = 2·512/32 = 32, vl = 20
    h.x[A0] = 0x1234_5678;
    ok(&mut u, &mut h, 0x5e054c57); // vmv.v.x v24, a0
    h.x[A0] = 0x0000_0001;
    ok(&mut u, &mut h, 0x5e054857); // vmv.v.x v16, a0
    // vadd.vv: 1 + 0x12345678 = 0x12345679 in all 20 elements; elements 16..20
    // (bytes 64..80 of the group) lie in v9, so v8 and v9 are written.
    let e = ok(&mut u, &mut h, VADD_VV);
    assert_eq!(elem(&u, 8, 19, 4), 0x1234_5679);
    assert_eq!(elem(&u, 8, 20, 4), 0, "tail");
    assert_eq!(e.written, 0b11 << 8);
    // vsub.vv: 1 - 0x12345678 = 0xedcba989 modulo 2^32.
    ok(&mut u, &mut h, VSUB_VV);
    assert_eq!(elem(&u, 8, 0, 4), 0xedcb_a989);
    // vxor.vv: 0x00000001 ^ 0x12345678 = 0x12345679.
    ok(&mut u, &mut h, VXOR_VV);
    assert_eq!(elem(&u, 8, 5, 4), 0x1234_5679);
}

#[test]
fn logical_and_subtract_with_scalars() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETIVLI_X0_5_E32_M1);
    h.x[A0] = 0xf0f0_00ff;
    ok(&mut u, &mut h, 0x5e054857); // vmv.v.x v16, a0
    // vand.vi 7: 0xf0f000ff & 7 = 7.
    ok(&mut u, &mut h, VAND_VI_7);
    assert_eq!(elem(&u, 8, 4, 4), 7);
    // vor.vx with 0xffff_ffff_0f0f_ff00: low 32 bits 0x0f0fff00;
    // 0xf0f000ff | 0x0f0fff00 = 0xffffffff.
    h.x[A0] = 0xffff_ffff_0f0f_ff00;
    ok(&mut u, &mut h, VOR_VX);
    assert_eq!(elem(&u, 8, 0, 4), 0xffff_ffff);
    // vxor.vi -1 (vnot): !0xf0f000ff = 0x0f0fff00.
    ok(&mut u, &mut h, VXOR_VI_M1);
    assert_eq!(elem(&u, 8, 2, 4), 0x0f0f_ff00);
    // vsub.vx with 0x100: 0xf0f000ff - 0x100 = 0xf0efffff.
    h.x[A0] = 0x100;
    ok(&mut u, &mut h, VSUB_VX);
    assert_eq!(elem(&u, 8, 1, 4), 0xf0ef_ffff);
}

#[test]
fn vmv_v_v_copies_the_body() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETIVLI_X0_2_E64_M1);
    h.x[A0] = 0x0123_4567_89ab_cdef;
    ok(&mut u, &mut h, VMV_V_X_V8_A0);
    let e = ok(&mut u, &mut h, VMV_V_V_V16_V8);
    assert_eq!(elem(&u, 16, 1, 8), 0x0123_4567_89ab_cdef);
    assert_eq!(elem(&u, 16, 2, 8), 0, "vl = 2: element 2 is tail");
    assert_eq!(e.written, 1 << 16);
}

#[test]
fn vid_numbers_the_elements() {
    let (mut u, mut h) = unit();
    h.x[A0] = 1000;
    ok(&mut u, &mut h, VSETVLI_T0_A0_E16_M1); // vl = VLMAX = 512/16 = 32
    ok(&mut u, &mut h, VID_V8);
    for i in 0..32 {
        assert_eq!(elem(&u, 8, i, 2), i as u64);
    }
    // At SEW 8 with m2, VLMAX = 128: element 127 = 0x7f sits in v9.
    ok(&mut u, &mut h, VSETVLI_T0_A0_E8_M2);
    ok(&mut u, &mut h, VID_V8);
    assert_eq!(u.reg(9)[63], 127);
}

#[test]
fn vmv_x_s_sign_extends_element_0() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETIVLI_X0_4_E16_M1);
    u.regs[8 * 64] = 0x01;
    u.regs[8 * 64 + 1] = 0x80; // element 0 = 0x8001
    let e = ok(&mut u, &mut h, VMV_X_S_A0_V8);
    // 0x8001 has bit 15 set: sign-extended to 0xffff_ffff_ffff_8001.
    assert_eq!(h.x[A0], 0xffff_ffff_ffff_8001);
    let read_only = Effect {
        dirties: false,
        written: 0,
        class: VClass::Scalar,
    };
    assert_eq!(e, read_only);
    // vl = 0 does not stop it (§16.1).
    ok(&mut u, &mut h, VSETIVLI_X0_0_E16_M1);
    u.regs[8 * 64 + 1] = 0x7f; // element 0 = 0x7f01, positive
    ok(&mut u, &mut h, VMV_X_S_A0_V8);
    assert_eq!(h.x[A0], 0x7f01);
}

#[test]
fn vmv_s_x_writes_element_0_only() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETIVLI_X0_5_E32_M1);
    fill(&mut u, 8, 0x11);
    h.x[A0] = 0xdead_beef_cafe_f00d;
    let e = ok(&mut u, &mut h, VMV_S_X_V8_A0);
    // The low 32 bits, 0xcafef00d, little-endian; everything else unchanged.
    assert_eq!(&u.reg(8)[..4], &[0x0d, 0xf0, 0xfe, 0xca]);
    assert!(u.reg(8)[4..].iter().all(|b| *b == 0x11));
    assert_eq!(
        (e.dirties, e.written, e.class),
        (true, 1 << 8, VClass::Scalar)
    );
    // With vl = 0 (vstart ≥ vl) nothing is written.
    ok(&mut u, &mut h, VSETIVLI_X0_0_E16_M1);
    fill(&mut u, 8, 0x11);
    let e = ok(&mut u, &mut h, VMV_S_X_V8_A0);
    assert!(u.reg(8).iter().all(|b| *b == 0x11));
    assert_eq!(e.written, 0);
}

#[test]
fn vstart_skips_prestart_elements_and_is_reset() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETIVLI_X0_8_E8_M1);
    assert!(u.write_csr(0x008, 3));
    let e = ok(&mut u, &mut h, VMV_V_I_V8_15);
    // Elements 0..3 are prestart and keep 0; 3..8 become 15; the rest tail.
    assert_eq!(&u.reg(8)[..9], &[0, 0, 0, 15, 15, 15, 15, 15, 0]);
    assert_eq!(u.vstart, 0);
    assert!(e.dirties);
    // A read-only instruction that resets a non-zero vstart changes state.
    assert!(u.write_csr(0x008, 1));
    assert!(ok(&mut u, &mut h, VMV_X_S_A0_V8).dirties);
}

#[test]
fn fractional_lmul_uses_part_of_one_register() {
    let (mut u, mut h) = unit();
    h.x[A0] = 1000;
    ok(&mut u, &mut h, VSETVLI_T0_A0_E8_MF2); // VLMAX = 512/2/8 = 32
    // v3 is legal: fractional groups are single registers.
    let e = ok(&mut u, &mut h, VMV_V_I_V3_1);
    assert!(u.reg(3)[..32].iter().all(|b| *b == 1));
    assert!(u.reg(3)[32..].iter().all(|b| *b == 0));
    assert_eq!(e.class, VClass::Arith { lmul_x8: 4 });
}

#[test]
fn misaligned_groups_and_vill_trap_without_touching_state() {
    let (mut u, mut h) = unit();
    h.x[A0] = 1000;
    ok(&mut u, &mut h, VSETVLI_T0_A0_E8_M2);
    let before = u.clone();
    // LMUL = 2: vd = v9 is odd, reserved (§3.4.2).
    assert!(matches!(
        run(&mut u, &mut h, VADD_VV_V9),
        Err(VTrap::Illegal(_))
    ));
    assert_eq!(u, before);
    // From reset vill is set: every vtype-dependent instruction traps, and
    // vstart keeps its value (§3.7).
    let mut u = VUnit::new(512);
    assert!(u.write_csr(0x008, 2));
    let vill = Err(VTrap::Illegal("vtype.vill is set"));
    for raw in [VADD_VV, VMV_V_I_V8_15, VID_V8, VMV_X_S_A0_V8, VMV_S_X_V8_A0] {
        assert_eq!(run(&mut u, &mut h, raw), vill, "{raw:#010x}");
    }
    assert_eq!(u.vstart, 2);
}

#[test]
fn vl_zero_writes_nothing() {
    let (mut u, mut h) = unit();
    ok(&mut u, &mut h, VSETIVLI_X0_0_E16_M1);
    let e = ok(&mut u, &mut h, VID_V8);
    assert_eq!(u.regs, vec![0; 32 * 64]);
    assert_eq!(e.written, 0);
    // Still an instruction that writes vector state, by its kind.
    assert!(e.dirties);
}
