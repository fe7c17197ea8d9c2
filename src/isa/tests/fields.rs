//! Hand-written expectations for the fixture's `case_*` instructions: op,
//! registers, immediate and length, plus the RAS hints of the jumps.

use super::super::{
    AluOp, AmoOp, BranchCond as B, Class, CsrOp, DivOp, Insn, MulOp, Op, RasHint, Reg, decode_word,
};
use super::Fixture;

/// Expected immediate: a value, or for branches and jumps the target label.
enum Imm {
    Val(i64),
    /// Offset to the first instruction after this label.
    To(&'static str),
}
use Imm::{To, Val};

fn load(width: u8, signed: bool) -> Op {
    Op::Load { width, signed }
}

/// Expected decode of the instruction after a label: (label, len, op, rd,
/// rs1, rs2, imm, csr).
type Case = (&'static str, u8, Op, u8, u8, u8, Imm, u16);

#[rustfmt::skip]
fn cases() -> Vec<Case> {
    use AluOp::*;
    vec![
        ("case_lui", 4, Op::Lui, 10, 0, 0, Val(0x1234_5000), 0),
        ("case_lui_neg", 4, Op::Lui, 5, 0, 0, Val(-4096), 0),
        ("case_auipc", 4, Op::Auipc, 3, 0, 0, Val(-0x8000_0000), 0),
        ("case_jal_ra", 4, Op::Jal, 1, 0, 0, To("fwd"), 0),
        ("case_j", 4, Op::Jal, 0, 0, 0, To("case_jal_ra"), 0),
        ("case_ret", 4, Op::Jalr, 0, 1, 0, Val(0), 0),
        ("case_jr_t0", 4, Op::Jalr, 0, 5, 0, Val(0), 0),
        ("case_jalr_t1", 4, Op::Jalr, 1, 6, 0, Val(0), 0),
        ("case_jalr_t0_t0", 4, Op::Jalr, 5, 5, 0, Val(0), 0),
        ("case_jalr_a0_a1", 4, Op::Jalr, 10, 11, 0, Val(16), 0),
        ("case_beq", 4, Op::Branch(B::Beq), 0, 10, 11, To("fwd"), 0),
        ("case_blt_back", 4, Op::Branch(B::Blt), 0, 10, 11, To("case_jal_ra"), 0),
        ("case_lb", 4, load(1, true), 10, 11, 0, Val(-1), 0),
        ("case_ld", 4, load(8, true), 10, 2, 0, Val(2047), 0),
        ("case_lwu", 4, load(4, false), 10, 11, 0, Val(4), 0),
        ("case_sd", 4, Op::Store { width: 8 }, 0, 2, 1, Val(-8), 0),
        ("case_addi", 4, Op::AluImm(Add), 2, 2, 0, Val(-16), 0),
        ("case_li", 4, Op::AluImm(Add), 10, 0, 0, Val(2047), 0),
        ("case_mv", 4, Op::AluImm(Add), 10, 11, 0, Val(0), 0),
        ("case_nop", 4, Op::AluImm(Add), 0, 0, 0, Val(0), 0),
        ("case_slli", 4, Op::AluImm(Sll), 10, 11, 0, Val(63), 0),
        ("case_srai", 4, Op::AluImm(Sra), 10, 11, 0, Val(33), 0),
        ("case_add", 4, Op::Alu(Add), 10, 11, 12, Val(0), 0),
        ("case_sub", 4, Op::Alu(Sub), 10, 11, 12, Val(0), 0),
        ("case_sra", 4, Op::Alu(Sra), 10, 11, 12, Val(0), 0),
        ("case_addiw", 4, Op::AluImm(AddW), 10, 11, 0, Val(-1), 0),
        ("case_sraiw", 4, Op::AluImm(SraW), 10, 11, 0, Val(3), 0),
        ("case_addw", 4, Op::Alu(AddW), 10, 11, 12, Val(0), 0),
        ("case_subw", 4, Op::Alu(SubW), 10, 11, 12, Val(0), 0),
        ("case_fence", 4, Op::Fence, 0, 0, 0, Val(0x0ff), 0),
        ("case_pause", 4, Op::Fence, 0, 0, 0, Val(0x010), 0),
        ("case_fence_i", 4, Op::FenceI, 0, 0, 0, Val(0), 0),
        ("case_ecall", 4, Op::Ecall, 0, 0, 0, Val(0), 0),
        ("case_ebreak", 4, Op::Ebreak, 0, 0, 0, Val(0), 0),
        ("case_unimp", 4, Op::Csr(CsrOp::Rw), 0, 0, 0, Val(0), 0xc00),
        ("case_mul", 4, Op::Mul(MulOp::Mul), 10, 11, 12, Val(0), 0),
        ("case_div", 4, Op::Div(DivOp::Div), 10, 11, 12, Val(0), 0),
        ("case_mulw", 4, Op::Mul(MulOp::MulW), 10, 11, 12, Val(0), 0),
        ("case_remuw", 4, Op::Div(DivOp::RemuW), 10, 11, 12, Val(0), 0),
        ("case_lr_w", 4, Op::Lr { width: 4 }, 10, 11, 0, Val(0), 0),
        ("case_sc_d", 4, Op::Sc { width: 8 }, 10, 11, 12, Val(0), 0),
        ("case_amoswap_w", 4, Op::Amo { width: 4, op: AmoOp::Swap }, 10, 11, 12, Val(0), 0),
        ("case_amoadd_d", 4, Op::Amo { width: 8, op: AmoOp::Add }, 0, 11, 12, Val(0), 0),
        ("case_amomaxu_d", 4, Op::Amo { width: 8, op: AmoOp::Maxu }, 10, 11, 12, Val(0), 0),
        ("case_csrrw", 4, Op::Csr(CsrOp::Rw), 10, 11, 0, Val(0), 0x140),
        ("case_csrrs", 4, Op::Csr(CsrOp::Rs), 10, 0, 0, Val(0), 0x100),
        ("case_csrrc", 4, Op::Csr(CsrOp::Rc), 10, 11, 0, Val(0), 0x104),
        ("case_csrrwi", 4, Op::Csr(CsrOp::Rwi), 10, 5, 0, Val(0), 0x141),
        ("case_csrrci", 4, Op::Csr(CsrOp::Rci), 10, 1, 0, Val(0), 0x143),
        ("case_csr_unknown", 4, Op::Csr(CsrOp::Rs), 10, 0, 0, Val(0), 0x7c0),
        ("case_sret", 4, Op::Sret, 0, 0, 0, Val(0), 0),
        ("case_mret", 4, Op::Mret, 0, 0, 0, Val(0), 0),
        ("case_wfi", 4, Op::Wfi, 0, 0, 0, Val(0), 0),
        ("case_sfence_vma", 4, Op::SfenceVma, 0, 0, 0, Val(0), 0),
        ("case_sfence_vma_2", 4, Op::SfenceVma, 0, 10, 11, Val(0), 0),
        ("case_flw", 4, Op::FpLoad { width: 4 }, 10, 10, 0, Val(4), 0),
        ("case_fld", 4, Op::FpLoad { width: 8 }, 8, 2, 0, Val(-8), 0),
        ("case_fsw", 4, Op::FpStore { width: 4 }, 0, 10, 10, Val(4), 0),
        ("case_fsd", 4, Op::FpStore { width: 8 }, 0, 2, 31, Val(2040), 0),
        ("case_fadd_s", 4, Op::Fp, 10, 11, 12, Val(0), 0),
        ("case_fmv_x_w", 4, Op::Fp, 10, 11, 0, Val(0), 0),
        ("case_fmadd_s", 4, Op::Fp, 10, 11, 12, Val(0), 0),
        ("case_fadd_d", 4, Op::Fp, 0, 1, 2, Val(0), 0),
        ("case_fmv_d_x", 4, Op::Fp, 10, 11, 0, Val(0), 0),
        ("case_vsetvli", 4, Op::Vector, 5, 10, 16, Val(0), 0),
        ("case_vse8", 4, Op::Vector, 1, 10, 0, Val(0), 0),
        ("case_c_addi4spn", 2, Op::AluImm(Add), 10, 2, 0, Val(16), 0),
        ("case_c_fld", 2, Op::FpLoad { width: 8 }, 10, 11, 0, Val(8), 0),
        ("case_c_lw", 2, load(4, true), 10, 11, 0, Val(4), 0),
        ("case_c_ld", 2, load(8, true), 10, 11, 0, Val(8), 0),
        ("case_c_fsd", 2, Op::FpStore { width: 8 }, 0, 11, 10, Val(8), 0),
        ("case_c_sw", 2, Op::Store { width: 4 }, 0, 11, 10, Val(4), 0),
        ("case_c_sd", 2, Op::Store { width: 8 }, 0, 11, 10, Val(248), 0),
        ("case_c_nop", 2, Op::AluImm(Add), 0, 0, 0, Val(0), 0),
        ("case_c_addi", 2, Op::AluImm(Add), 2, 2, 0, Val(-16), 0),
        ("case_c_addiw", 2, Op::AluImm(AddW), 10, 10, 0, Val(-1), 0),
        ("case_c_li", 2, Op::AluImm(Add), 10, 0, 0, Val(5), 0),
        ("case_c_lui", 2, Op::Lui, 10, 0, 0, Val(4096), 0),
        ("case_c_lui_neg", 2, Op::Lui, 10, 0, 0, Val(-0x20000), 0),
        ("case_c_addi16sp", 2, Op::AluImm(Add), 2, 2, 0, Val(-32), 0),
        ("case_c_srli", 2, Op::AluImm(Srl), 10, 10, 0, Val(3), 0),
        ("case_c_srai", 2, Op::AluImm(Sra), 11, 11, 0, Val(32), 0),
        ("case_c_andi", 2, Op::AluImm(And), 10, 10, 0, Val(-1), 0),
        ("case_c_sub", 2, Op::Alu(Sub), 10, 10, 11, Val(0), 0),
        ("case_c_subw", 2, Op::Alu(SubW), 10, 10, 11, Val(0), 0),
        ("case_c_addw", 2, Op::Alu(AddW), 9, 9, 15, Val(0), 0),
        ("case_c_j", 2, Op::Jal, 0, 0, 0, To("cfwd"), 0),
        ("case_c_beqz", 2, Op::Branch(B::Beq), 0, 10, 0, To("case_c_j"), 0),
        ("case_c_bnez", 2, Op::Branch(B::Bne), 0, 15, 0, To("cfwd"), 0),
        ("case_c_slli", 2, Op::AluImm(Sll), 10, 10, 0, Val(1), 0),
        ("case_c_fldsp", 2, Op::FpLoad { width: 8 }, 10, 2, 0, Val(8), 0),
        ("case_c_lwsp", 2, load(4, true), 10, 2, 0, Val(4), 0),
        ("case_c_ldsp", 2, load(8, true), 1, 2, 0, Val(8), 0),
        ("case_c_jr", 2, Op::Jalr, 0, 5, 0, Val(0), 0),
        ("case_c_ret", 2, Op::Jalr, 0, 1, 0, Val(0), 0),
        ("case_c_mv", 2, Op::Alu(Add), 10, 0, 11, Val(0), 0),
        ("case_c_ebreak", 2, Op::Ebreak, 0, 0, 0, Val(0), 0),
        ("case_c_jalr", 2, Op::Jalr, 1, 6, 0, Val(0), 0),
        ("case_c_jalr_t0", 2, Op::Jalr, 1, 5, 0, Val(0), 0),
        ("case_c_add", 2, Op::Alu(Add), 10, 10, 11, Val(0), 0),
        ("case_c_fsdsp", 2, Op::FpStore { width: 8 }, 0, 2, 10, Val(8), 0),
        ("case_c_swsp", 2, Op::Store { width: 4 }, 0, 2, 10, Val(4), 0),
        ("case_c_sdsp", 2, Op::Store { width: 8 }, 0, 2, 1, Val(8), 0),
        ("case_c_hints", 2, Op::AluImm(Add), 0, 0, 0, Val(1), 0),
    ]
}

fn case(f: &Fixture, label: &str) -> Insn {
    decode_word(f.at(label).raw).unwrap_or_else(|| panic!("{label} did not decode"))
}

#[test]
fn case_fields_match_hand_written_expectations() {
    let f = Fixture::load();
    for (label, len, op, rd, rs1, rs2, imm, csr) in cases() {
        let line = f.at(label);
        let imm = match imm {
            Val(v) => v,
            To(target) => f.addr(target).wrapping_sub(line.addr) as i64,
        };
        let want = Insn {
            raw: line.raw,
            len,
            op,
            rd,
            rs1,
            rs2,
            imm,
            csr,
        };
        assert_eq!(decode_word(line.raw), Some(want), "{label}: {}", line.text);
    }
}

#[test]
fn every_case_label_has_an_expectation() {
    let f = Fixture::load();
    let covered: Vec<&str> = cases().iter().map(|c| c.0).collect();
    let mut missing: Vec<&String> = f
        .labels
        .keys()
        .filter(|l| l.starts_with("case_") && !covered.contains(&l.as_str()))
        .collect();
    missing.sort();
    assert!(missing.is_empty(), "no expectation for {missing:?}");
}

/// Unprivileged spec §2.5, Table 2.1: x1 and x5 are link registers.
#[test]
fn ras_hints_of_calls_and_returns() {
    let f = Fixture::load();
    let expect = [
        ("case_ret", RasHint::Pop),               // jalr x0, 0(x1)
        ("case_jr_t0", RasHint::Pop),             // jalr x0, 0(x5)
        ("case_jalr_t1", RasHint::Push),          // jalr x1, 0(x6)
        ("case_jalr_t0_t0", RasHint::Push),       // rd = rs1 = x5: push only
        ("case_jal_ra", RasHint::Push),           // jal x1
        ("case_j", RasHint::None),                // jal x0
        ("case_jalr_a0_a1", RasHint::None),       // no link registers
        ("case_c_jr", RasHint::Pop),              // c.jr t0
        ("case_c_ret", RasHint::Pop),             // c.jr ra
        ("case_c_jalr", RasHint::Push),           // c.jalr t1 = jalr x1, 0(x6)
        ("case_c_jalr_t0", RasHint::PopThenPush), // c.jalr t0 = jalr x1, 0(x5)
        ("case_c_j", RasHint::None),
        ("case_beq", RasHint::None),
    ];
    for (label, hint) in expect {
        assert_eq!(case(&f, label).ras_hint(), hint, "{label}");
    }
    // jalr t0, 0(ra): both links, different: pop then push.
    assert_eq!(
        decode_word(0x0000_82e7).unwrap().ras_hint(),
        RasHint::PopThenPush
    );
}

#[test]
fn classes_and_control_flow() {
    let f = Fixture::load();
    let expect = [
        ("case_lui", Class::Alu, false),
        ("case_c_addi", Class::Alu, false),
        ("case_mul", Class::Mul, false),
        ("case_remuw", Class::Div, false),
        ("case_ld", Class::Load, false),
        ("case_c_fldsp", Class::Load, false),
        ("case_c_sdsp", Class::Store, false),
        ("case_beq", Class::Branch, true),
        ("case_c_bnez", Class::Branch, true),
        ("case_jal_ra", Class::Jump, true),
        ("case_c_jr", Class::Jump, true),
        ("case_csrrw", Class::Csr, false),
        ("case_fence", Class::Fence, false),
        ("case_fence_i", Class::Fence, false),
        ("case_sfence_vma", Class::Fence, false),
        ("case_amoswap_w", Class::Amo, false),
        ("case_lr_w", Class::LrSc, false),
        ("case_sc_d", Class::LrSc, false),
        ("case_ecall", Class::System, true),
        ("case_c_ebreak", Class::System, true),
        ("case_sret", Class::System, true),
        ("case_mret", Class::System, true),
        ("case_wfi", Class::System, false),
        ("case_fadd_d", Class::Fp, false),
        ("case_vsetvli", Class::Vector, false),
    ];
    for (label, class, control) in expect {
        let insn = case(&f, label);
        assert_eq!(insn.class(), class, "{label}");
        assert_eq!(insn.is_control(), control, "{label}");
        assert!(!control || insn.ends_block(), "{label}");
    }
    assert!(case(&f, "case_fence_i").ends_block());
    assert!(case(&f, "case_wfi").ends_block());
    assert!(!case(&f, "case_csrrw").ends_block());
}

#[test]
fn destinations_and_ordering_bits() {
    let f = Fixture::load();
    assert_eq!(case(&f, "case_fmv_x_w").dest(), Some(Reg::X(10)));
    assert_eq!(case(&f, "case_fmv_d_x").dest(), Some(Reg::F(10)));
    assert_eq!(case(&f, "case_fadd_s").dest(), Some(Reg::F(10)));
    assert_eq!(case(&f, "case_c_fld").dest(), Some(Reg::F(10)));
    assert_eq!(case(&f, "case_csrrw").dest(), Some(Reg::X(10)));
    assert_eq!(case(&f, "case_jal_ra").dest(), Some(Reg::X(1)));
    assert_eq!(case(&f, "case_amoadd_d").dest(), None); // rd = x0
    assert_eq!(case(&f, "case_sd").dest(), None);
    assert_eq!(case(&f, "case_vsetvli").dest(), None);
    let amo = case(&f, "case_amomaxu_d");
    assert!(amo.aq() && amo.rl());
    let lr = case(&f, "case_lr_w");
    assert!(!lr.aq() && !lr.rl());
}
