//! Decoding: every instruction trapscope runs disassembles exactly as
//! binutils 2.40 prints it (`objdump -d -M no-aliases`, with ", " between
//! operands), masked forms are named as unsupported, and reserved encodings
//! are illegal (V spec 1.0 §5: trapping on them is recommended).

use super::super::{AluOp, Operand, VOp, VTrap, decode};

/// (encoding, objdump's text) for the supported instructions.
const SUPPORTED: &[(u32, &str)] = &[
    (0x003572d7, "vsetvli t0, a0, e8, m8, tu, mu"),
    (0x0c3572d7, "vsetvli t0, a0, e8, m8, ta, ma"),
    (0x0c3072d7, "vsetvli t0, zero, e8, m8, ta, ma"),
    (0x009075d7, "vsetvli a1, zero, e16, m2, tu, mu"),
    (0x01007057, "vsetvli zero, zero, e32, m1, tu, mu"),
    (0x006572d7, "vsetvli t0, a0, e8, mf4, tu, mu"),
    (0x005572d7, "vsetvli t0, a0, e8, mf8, tu, mu"),
    (0x007572d7, "vsetvli t0, a0, e8, mf2, tu, mu"),
    (0x010572d7, "vsetvli t0, a0, e32, m1, tu, mu"),
    (0x008572d7, "vsetvli t0, a0, e16, m1, tu, mu"),
    (0x018572d7, "vsetvli t0, a0, e64, m1, tu, mu"),
    (0x000572d7, "vsetvli t0, a0, e8, m1, tu, mu"),
    (0x001572d7, "vsetvli t0, a0, e8, m2, tu, mu"),
    (0x011572d7, "vsetvli t0, a0, e32, m2, tu, mu"),
    (0xc100f057, "vsetivli zero, 1, e32, m1, tu, mu"),
    (0xc0827057, "vsetivli zero, 4, e16, m1, tu, mu"),
    (0xc0807057, "vsetivli zero, 0, e16, m1, tu, mu"),
    (0xc102f057, "vsetivli zero, 5, e32, m1, tu, mu"),
    (0xc0047057, "vsetivli zero, 8, e8, m1, tu, mu"),
    (0xc1817057, "vsetivli zero, 2, e64, m1, tu, mu"),
    (0xc5fff557, "vsetivli a0, 31, e64, mf2, ta, mu"),
    (0xc57ff557, "vsetivli a0, 31, e32, mf2, ta, mu"),
    (0x80b572d7, "vsetvl t0, a0, a1"),
    (0x80b072d7, "vsetvl t0, zero, a1"),
    (0x5e0fb057, "vmv.v.i v0, -1"),
    (0x5e07b457, "vmv.v.i v8, 15"),
    (0x5e083857, "vmv.v.i v16, -16"),
    (0x5e00b1d7, "vmv.v.i v3, 1"),
    (0x5e054457, "vmv.v.x v8, a0"),
    (0x5e040857, "vmv.v.v v16, v8"),
    (0x42802557, "vmv.x.s a0, v8"),
    (0x42056457, "vmv.s.x v8, a0"),
    (0x5208a457, "vid.v v8"),
    (0x02050007, "vle8.v v0, (a0)"),
    (0x02050407, "vle8.v v8, (a0)"),
    (0x02055407, "vle16.v v8, (a0)"),
    (0x02056407, "vle32.v v8, (a0)"),
    (0x02057407, "vle64.v v8, (a0)"),
    (0x02058027, "vse8.v v0, (a1)"),
    (0x0205d427, "vse16.v v8, (a1)"),
    (0x0205e427, "vse32.v v8, (a1)"),
    (0x0205f427, "vse64.v v8, (a1)"),
    (0x02850407, "vl1re8.v v8, (a0)"),
    (0x02856407, "vl1re32.v v8, (a0)"),
    (0x22855407, "vl2re16.v v8, (a0)"),
    (0x62856407, "vl4re32.v v8, (a0)"),
    (0xe2857407, "vl8re64.v v8, (a0)"),
    (0xe2850407, "vl8re8.v v8, (a0)"),
    (0x02858427, "vs1r.v v8, (a1)"),
    (0x22858427, "vs2r.v v8, (a1)"),
    (0x62858427, "vs4r.v v8, (a1)"),
    (0xe2858427, "vs8r.v v8, (a1)"),
    (0x030c0457, "vadd.vv v8, v16, v24"),
    (0x03054457, "vadd.vx v8, v16, a0"),
    (0x03083457, "vadd.vi v8, v16, -16"),
    (0x0b0c0457, "vsub.vv v8, v16, v24"),
    (0x0b054457, "vsub.vx v8, v16, a0"),
    (0x270c0457, "vand.vv v8, v16, v24"),
    (0x27054457, "vand.vx v8, v16, a0"),
    (0x2703b457, "vand.vi v8, v16, 7"),
    (0x2b0c0457, "vor.vv v8, v16, v24"),
    (0x2b054457, "vor.vx v8, v16, a0"),
    (0x2b03b457, "vor.vi v8, v16, 7"),
    (0x2f0c0457, "vxor.vv v8, v16, v24"),
    (0x2f054457, "vxor.vx v8, v16, a0"),
    (0x2f0fb457, "vxor.vi v8, v16, -1"),
    (0x030c04d7, "vadd.vv v9, v16, v24"),
    (0x022180d7, "vadd.vv v1, v2, v3"),
];

#[test]
fn supported_instructions_print_as_objdump_does() {
    for &(raw, text) in SUPPORTED {
        match decode(raw) {
            Ok(insn) => assert_eq!(insn.to_string(), text, "{raw:#010x}"),
            Err(t) => panic!("{raw:#010x} ({text}): {t:?}"),
        }
    }
}

#[test]
fn fields_of_a_few_encodings() {
    // vadd.vi v8, v16, -16: simm5 0b10000 sign-extends to -16.
    let add = VOp::Alu {
        op: AluOp::Add,
        vd: 8,
        vs2: 16,
        src: Operand::I(-16),
    };
    assert_eq!(decode(0x03083457).map(|i| i.op), Ok(add));
    // vsetivli a0, 31, e32, mf2, ta, mu: vtypei = ta 0x40 | e32 0x10 | mf2 7.
    let vsetivli = VOp::Vsetivli {
        rd: 10,
        uimm: 31,
        vtypei: 0x57,
    };
    assert_eq!(decode(0xc57ff557).map(|i| i.op), Ok(vsetivli));
    // vl4re32.v v8, (a0): nf = 3 → 4 registers.
    let whole = VOp::LoadWhole {
        nregs: 4,
        eew: 32,
        vd: 8,
        rs1: 10,
    };
    assert_eq!(decode(0x62856407).map(|i| i.op), Ok(whole));
}

#[test]
fn masked_forms_are_unsupported() {
    let masked = [
        (0x010c0457, "vadd.vv (masked)"), // vadd.vv v8, v16, v24, v0.t
        (0x09054457, "vsub.vx (masked)"), // vsub.vx v8, v16, a0, v0.t
        (0x2501b457, "vand.vi (masked)"), // vand.vi v8, v16, 3, v0.t
        (0x00056407, "vle32.v (masked)"), // vle32.v v8, (a0), v0.t
        (0x00050427, "vse8.v (masked)"),  // vse8.v v8, (a0), v0.t
        (0x5008a457, "vid.v (masked)"),   // vid.v v8, v0.t
    ];
    for (raw, name) in masked {
        assert_eq!(decode(raw), Err(VTrap::Unsupported(name.into())));
    }
}

#[test]
fn reserved_encodings_are_illegal() {
    // Each is a supported encoding (hex from the assembler above) with one
    // field changed, checked with objdump to print as `.4byte`.
    let reserved = [
        (0x0b083457, "vadd.vi v8, v16, -16 as vsub.vi"),
        (0x5e17b457, "vmv.v.i v8, 15 with vs2 = v1 instead of v0"),
        (0x82b572d7, "vsetvl t0, a0, a1 with bit 25 set"),
        (0x12056407, "vle32.v v8, (a0) with mew = 1: EEW 128 and up"),
        (0x42850407, "vl1re8.v v8, (a0) with nf = 2: three registers"),
        (0x0285e427, "vs1r.v v8, (a1) with width 110 (e32)"),
        (0x00850407, "vl1re8.v v8, (a0) with vm = 0"),
        (0x40802557, "vmv.x.s a0, v8 with vm = 0"),
        (0x42156457, "vmv.s.x v8, a0 with vs2 = v1"),
        (0x5218a457, "vid.v v8 with vs2 = v1"),
        (0x070c0457, "OPIVV funct6 000001: no instruction"),
        (0x0305e427, "vse32.v v8, (a1) with lumop 10000 (ff)"),
    ];
    for (raw, what) in reserved {
        assert!(
            matches!(decode(raw), Err(VTrap::Illegal(_))),
            "{what}: {:?}",
            decode(raw)
        );
    }
}

#[test]
fn scalar_encodings_are_not_vector() {
    // flw fa0, 0(a0) = 0x00052507 (LOAD-FP, width 010) and add a0, a0, a1.
    for raw in [0x00052507, 0x00b50533] {
        assert!(matches!(decode(raw), Err(VTrap::Illegal(_))));
    }
}
