//! Reserved and unknown encodings, lengths, byte-slice decoding, and a few
//! legal-but-odd encodings the assembler will not emit.

use super::super::{Op, decode, decode_word, disasm, insn_len};

#[test]
fn lengths() {
    assert_eq!(insn_len(0x0000), Some(2));
    assert_eq!(insn_len(0x8082), Some(2)); // c.jr ra
    assert_eq!(insn_len(0x0013), Some(4));
    assert_eq!(insn_len(0x001f), None); // 48-bit
    assert_eq!(insn_len(0x003f), None); // 64-bit
    assert_eq!(insn_len(0x007f), None); // >= 80-bit
    assert_eq!(insn_len(0xffff), None);
}

#[test]
fn reserved_compressed_encodings() {
    let reserved: [(u16, &str); 11] = [
        (0x0000, "all-zero illegal instruction"),
        (0x0004, "c.addi4spn with nzuimm = 0"),
        (0x8000, "quadrant 0 funct3 100"),
        (0x2001, "c.addiw with rd = x0"),
        // objdump 2.40 prints "add sp,sp,0", but Table 16.6 marks it reserved.
        (0x6101, "c.addi16sp with nzimm = 0"),
        (0x6081, "c.lui with nzimm = 0"),
        (0x9c41, "CA format funct 1-10"),
        (0x9c61, "CA format funct 1-11"),
        (0x4002, "c.lwsp with rd = x0"),
        (0x6002, "c.ldsp with rd = x0"),
        (0x8002, "c.jr with rs1 = x0"),
    ];
    for (raw, what) in reserved {
        assert_eq!(decode_word(u32::from(raw)), None, "{raw:04x}: {what}");
        assert_eq!(decode(&raw.to_le_bytes()), None, "{raw:04x}: {what}");
    }
}

#[test]
fn reserved_and_unknown_32bit_encodings() {
    let unknown: [(u32, &str); 30] = [
        (0xffff_ffff, "all ones (an 80+-bit length prefix)"),
        (0x0000_9067, "jalr with funct3 = 1"),
        (0x0005_f503, "load funct3 7"),
        (0x00a5_c023, "store funct3 4"),
        (0x00b5_2063, "branch funct3 2"),
        (0x0000_0573, "ecall with rd != 0"),
        (0x1200_0573, "sfence.vma with rd != 0"),
        (0x0000_4073, "SYSTEM funct3 4 (hypervisor loads)"),
        (0x4015_9513, "slli with funct6 != 0"),
        (0x2015_d513, "srai with an unknown funct6"),
        (0x0005_a51b, "OP-IMM-32 funct3 2"),
        (0x0235_d51b, "srliw with funct7 = 1"),
        (0x0ac5_c533, "OP funct7 5 (Zbb min)"),
        (0x02c5_953b, "OP-32 M funct3 1"),
        (0x1015_a52f, "lr.w with rs2 != 0"),
        (0x08c5_852f, "AMO funct3 0"),
        (0x28c5_a52f, "AMO funct5 00101"),
        (0x0000_200f, "MISC-MEM funct3 2 (Zicbom)"),
        (0x0000_000b, "custom-0"),
        (0x06c5_f553, "fadd.q (Q not supported)"),
        (0x04c5_f553, "fadd.h (Zfh not supported)"),
        (0x00c5_d553, "fadd.s with reserved rm 5"),
        (0x00c5_e553, "fadd.s with reserved rm 6"),
        (0x20c5_b553, "fsgnj funct3 3"),
        (0x5815_f553, "fsqrt.s with rs2 != 0"),
        (0xe005_a553, "fmv.x.w/fclass funct3 2"),
        (0xc045_f553, "fcvt.w.s with rs2 = 4"),
        (0x0045_1507, "flh (Zfh)"),
        (0x00a5_4227, "fsq (Q)"),
        (0x6ec5_f543, "fmadd.q (Q)"),
    ];
    for (raw, what) in unknown {
        assert_eq!(decode_word(raw), None, "{raw:08x}: {what}");
        assert_eq!(decode(&raw.to_le_bytes()), None, "{raw:08x}: {what}");
    }
}

#[test]
fn byte_slices() {
    assert_eq!(decode(&[]), None);
    assert_eq!(decode(&[0x13]), None);
    assert_eq!(
        decode(&[0x13, 0x00, 0x00]),
        None,
        "a 32-bit encoding needs 4 bytes"
    );
    let nop = decode(&[0x13, 0x00, 0x00, 0x00]).unwrap();
    assert_eq!((nop.len, nop.op), (4, Op::AluImm(super::super::AluOp::Add)));
    // A compressed instruction needs only 2 bytes and ignores what follows.
    let ret = decode(&[0x82, 0x80, 0xff, 0xff]).unwrap();
    assert_eq!(
        (ret.raw, ret.len, ret.op, ret.rs1),
        (0x8082, 2, Op::Jalr, 1)
    );
    assert_eq!(decode(&[0x82, 0x80]), Some(ret));
    // decode_word likewise ignores the upper half after a compressed one.
    let cnop = decode_word(0xdead_0001).unwrap();
    assert_eq!((cnop.raw, cnop.len), (0x0001, 2));
}

/// Spec-legal encodings that binutils 2.40 either cannot emit or cannot
/// disassemble, with the text we print for them.
#[test]
fn legal_oddities() {
    let cases: [(u32, u64, &str); 12] = [
        (0x00a5_900f, 0, "fence.i"),    // reserved fields are ignored (ch. 3)
        (0x0001_000f, 0, "fence 0, 0"), // rs1 ignored; empty sets are a HINT
        (0x8330_000f, 0, "fence.tso"),
        (0x0100_000f, 0, "pause"),
        (0x4205_f553, 0, "fcvt.d.s fa0, fa1, dyn"), // exact op, non-default rm
        (0xd215_f553, 0, "fcvt.d.wu fa0, a1, dyn"),
        (0x12b0_0073, 0, "sfence.vma zero, a1"),
        (0x0000_2073, 0, "csrr zero, 0x0"),
        (0x0000_bff5, 0, "j 0xfffffffffffffffc"), // c.j -4 at pc 0 wraps
        (0xfe05_0ee3, 0x8000_0000, "beqz a0, 0x7ffffffc"),
        (0x0000_9002, 0, "ebreak"),
        (0x0000_0001, 0, "nop"),
    ];
    for (raw, pc, text) in cases {
        let insn = decode_word(raw).unwrap_or_else(|| panic!("{raw:08x} should decode"));
        assert_eq!(disasm(&insn, pc), text, "{raw:08x}");
    }
}

/// Every 16-bit value either decodes to a sane expansion or is `None`, and
/// neither decoding nor disassembly can panic.
#[test]
fn exhaustive_compressed_space() {
    let mut defined = 0;
    for raw in 0..=u16::MAX {
        if raw & 3 == 3 {
            continue;
        }
        let Some(insn) = decode_word(u32::from(raw)) else {
            continue;
        };
        defined += 1;
        assert_eq!((insn.len, insn.raw), (2, u32::from(raw)));
        assert!(insn.rd < 32 && insn.rs1 < 32 && insn.rs2 < 32, "{raw:04x}");
        if let Op::Load { width, .. }
        | Op::Store { width }
        | Op::FpLoad { width }
        | Op::FpStore { width } = insn.op
        {
            assert!(
                insn.imm >= 0 && insn.imm % i64::from(width) == 0,
                "{raw:04x}: {insn:?}"
            );
        }
        assert!(!disasm(&insn, 0x8000_0000).is_empty());
    }
    // 3 quadrants x 2^14, minus reserved code points.
    assert!(defined > 45_000 && defined < 49_152, "{defined}");
}

/// Pseudo-random 32-bit words (fixed-seed xorshift) never panic.
#[test]
fn sampled_32bit_space_never_panics() {
    let mut x: u32 = 0x2545_f491;
    for _ in 0..1_000_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let raw = x | 3;
        if let Some(insn) = decode_word(raw) {
            assert_eq!(insn.len, 4);
            assert!(insn.rd < 32 && insn.rs1 < 32 && insn.rs2 < 32);
            let _ = disasm(&insn, 0xffff_ffff_ffff_fff0);
            let _ = insn.dest();
        }
    }
}
