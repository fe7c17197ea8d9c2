//! The decoded-instruction value shared by every observer (convention 9: decode
//! once, many observers), plus the questions observers ask of it.

/// A decoded instruction.
///
/// `len` is 2 (compressed) or 4. Compressed instructions are expanded to the
/// fields of their 32-bit equivalent (`rd`, `rs1`, `rs2`, `imm`, `op`) so that
/// observers never care which form was fetched; `raw` and `len` keep the truth.
///
/// Field conventions, per operation:
/// - `Lui`/`Auipc`: `imm` is the value added, already shifted left by 12 and
///   sign-extended (`lui t0, 0xfffff` gives `imm == -4096`).
/// - `Jal`/`Branch`: `imm` is the byte offset from the instruction's own pc.
/// - shifts by an immediate: `imm` is the shift amount.
/// - `Csr(..)`: `csr` is the CSR number; for the `*i` forms the 5-bit uimm sits
///   in `rs1`, as in the encoding.
/// - `Fence`: `imm` holds encoding bits 31:20 (fm, pred, succ), non-negative.
/// - `Fp`, `FpLoad`, `FpStore`: register numbers name f-registers where the
///   operation uses them (see [`Insn::dest`]); rs3 and rm stay in `raw`, and
///   for conversions `rs2` is the encoding's type selector, not a register.
/// - `Vector`: `rd`/`rs1`/`rs2` are the raw bits 11:7, 19:15 and 24:20.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insn {
    pub raw: u32,
    pub len: u8,
    pub op: Op,
    pub rd: u8,
    pub rs1: u8,
    pub rs2: u8,
    pub imm: i64,
    pub csr: u16,
}

/// Operation, at the granularity the emulator's observers need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Lui,
    Auipc,
    Jal,
    Jalr,
    Branch(BranchCond),
    /// `width` in bytes: 1, 2, 4 or 8.
    Load {
        width: u8,
        signed: bool,
    },
    Store {
        width: u8,
    },
    AluImm(AluOp),
    Alu(AluOp),
    Mul(MulOp),
    Div(DivOp),
    Fence,
    FenceI,
    Ecall,
    Ebreak,
    Sret,
    Mret,
    Wfi,
    SfenceVma,
    Csr(CsrOp),
    Lr {
        width: u8,
    },
    Sc {
        width: u8,
    },
    Amo {
        width: u8,
        op: AmoOp,
    },
    FpLoad {
        width: u8,
    },
    FpStore {
        width: u8,
    },
    /// Any F/D computational instruction; details are in `raw`.
    Fp,
    /// The V extension's opcode space; decoded in detail elsewhere.
    Vector,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchCond {
    Beq,
    Bne,
    Blt,
    Bge,
    Bltu,
    Bgeu,
}

/// Integer ALU operations; the `*W` forms are RV64's 32-bit-result variants.
/// `Sub`, `Sll`.. appear as `Alu`; only the forms with an I-type encoding
/// (not `Sub`/`SubW`) appear as `AluImm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AluOp {
    Add,
    Sub,
    Sll,
    Slt,
    Sltu,
    Xor,
    Srl,
    Sra,
    Or,
    And,
    AddW,
    SubW,
    SllW,
    SrlW,
    SraW,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MulOp {
    Mul,
    Mulh,
    Mulhsu,
    Mulhu,
    MulW,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DivOp {
    Div,
    Divu,
    Rem,
    Remu,
    DivW,
    DivuW,
    RemW,
    RemuW,
}

/// Zicsr operations; the `*i` forms take a 5-bit immediate in the rs1 field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CsrOp {
    Rw,
    Rs,
    Rc,
    Rwi,
    Rsi,
    Rci,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AmoOp {
    Swap,
    Add,
    Xor,
    And,
    Or,
    Min,
    Max,
    Minu,
    Maxu,
}

/// Cost class, used by the cycle model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    Alu,
    Mul,
    Div,
    Load,
    Store,
    Branch,
    Jump,
    Csr,
    Fence,
    Amo,
    LrSc,
    System,
    Fp,
    Vector,
}

/// What a return-address-stack predictor should do for a jump, following the
/// hints of unprivileged spec 20191213 §2.5, Table 2.1 (x1 and x5 are links).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RasHint {
    None,
    Push,
    Pop,
    /// Coroutine swap: pop the return address, then push the new link.
    PopThenPush,
}

/// An architectural register an instruction writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reg {
    X(u8),
    F(u8),
}

impl Insn {
    pub fn class(&self) -> Class {
        match self.op {
            Op::Lui | Op::Auipc | Op::AluImm(_) | Op::Alu(_) => Class::Alu,
            Op::Mul(_) => Class::Mul,
            Op::Div(_) => Class::Div,
            Op::Load { .. } | Op::FpLoad { .. } => Class::Load,
            Op::Store { .. } | Op::FpStore { .. } => Class::Store,
            Op::Branch(_) => Class::Branch,
            Op::Jal | Op::Jalr => Class::Jump,
            Op::Csr(_) => Class::Csr,
            Op::Fence | Op::FenceI | Op::SfenceVma => Class::Fence,
            Op::Amo { .. } => Class::Amo,
            Op::Lr { .. } | Op::Sc { .. } => Class::LrSc,
            Op::Ecall | Op::Ebreak | Op::Sret | Op::Mret | Op::Wfi => Class::System,
            Op::Fp => Class::Fp,
            Op::Vector => Class::Vector,
        }
    }

    /// True when the next pc may not be `pc + len`: jumps, branches, and the
    /// instructions that trap or return from a trap.
    pub fn is_control(&self) -> bool {
        matches!(
            self.op,
            Op::Jal | Op::Jalr | Op::Branch(_) | Op::Ecall | Op::Ebreak | Op::Sret | Op::Mret
        )
    }

    /// True when a translation block should end after this instruction: control
    /// flow, plus instructions that invalidate fetched code or translations
    /// (fence.i, sfence.vma) or may stall the hart (wfi).
    pub fn ends_block(&self) -> bool {
        self.is_control() || matches!(self.op, Op::FenceI | Op::SfenceVma | Op::Wfi)
    }

    /// The RAS hint for `jal`/`jalr` (including c.j, c.jr, c.jalr); `None` for
    /// everything else.
    pub fn ras_hint(&self) -> RasHint {
        let link = |r: u8| r == 1 || r == 5;
        match self.op {
            Op::Jal if link(self.rd) => RasHint::Push,
            Op::Jalr => match (link(self.rd), link(self.rs1)) {
                (false, false) => RasHint::None,
                (false, true) => RasHint::Pop,
                (true, false) => RasHint::Push,
                (true, true) if self.rd == self.rs1 => RasHint::Push,
                (true, true) => RasHint::PopThenPush,
            },
            _ => RasHint::None,
        }
    }

    /// The register this instruction writes, if any (writes to x0 are none).
    /// Vector instructions report none: their destinations are the vector
    /// module's business.
    pub fn dest(&self) -> Option<Reg> {
        let x = (self.rd != 0).then_some(Reg::X(self.rd));
        match self.op {
            Op::Branch(_)
            | Op::Store { .. }
            | Op::FpStore { .. }
            | Op::Fence
            | Op::FenceI
            | Op::Ecall
            | Op::Ebreak
            | Op::Sret
            | Op::Mret
            | Op::Wfi
            | Op::SfenceVma
            | Op::Vector => None,
            Op::FpLoad { .. } => Some(Reg::F(self.rd)),
            Op::Fp => match super::fp::form(self.raw) {
                Some(f) if f.shape.int_dest() => x,
                _ => Some(Reg::F(self.rd)),
            },
            _ => x,
        }
    }

    /// Acquire bit of an LR/SC/AMO (unprivileged spec §8.1); false otherwise.
    pub fn aq(&self) -> bool {
        self.is_atomic() && self.raw & (1 << 26) != 0
    }

    /// Release bit of an LR/SC/AMO (unprivileged spec §8.1); false otherwise.
    pub fn rl(&self) -> bool {
        self.is_atomic() && self.raw & (1 << 25) != 0
    }

    fn is_atomic(&self) -> bool {
        matches!(self.op, Op::Lr { .. } | Op::Sc { .. } | Op::Amo { .. })
    }
}
