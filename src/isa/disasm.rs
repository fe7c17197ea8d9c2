//! GNU-objdump-like disassembly, so trapscope's listings read like the
//! `objdump -d` output kernel developers already know.
//!
//! Deliberate differences from binutils 2.40's objdump (the fixture test in
//! `src/isa/tests/objdump.rs` pins each one):
//! - operands are separated by ", "; jump and branch targets are
//!   `0x`-prefixed absolute addresses without a `<symbol>`;
//! - I-type ALU and CSR-immediate instructions keep their spec mnemonics
//!   (`addi`, `csrrwi`) where 2.40 prints `add`/`csrrw` with an immediate;
//! - `pause` (2.40: `fence w,unknown`), `fsrmi 1` / `fsflagsi 1` for rd = x0
//!   (2.40: `fsrmi zero,1`), and an empty FENCE set prints as `0`;
//! - only the CSRs in [`csr_name`] are named, the rest print in hex;
//! - vector instructions print as `.insn 4, 0x...`.

use super::fp;
use super::insn::{AluOp, AmoOp, BranchCond, CsrOp, DivOp, Insn, MulOp, Op};
use super::names::{csr_name, freg, xreg};

/// Disassembles `insn`, which sits at `pc` (for pc-relative targets).
pub fn disasm(insn: &Insn, pc: u64) -> String {
    let (rd, rs1, rs2, imm) = (xreg(insn.rd), xreg(insn.rs1), xreg(insn.rs2), insn.imm);
    let target = pc.wrapping_add(imm as u64);
    if insn.len == 2
        && let Some(text) = compressed_hint(insn)
    {
        return text;
    }
    match insn.op {
        Op::Lui => format!("lui {rd}, {:#x}", (imm >> 12) & 0xfffff),
        Op::Auipc => format!("auipc {rd}, {:#x}", (imm >> 12) & 0xfffff),
        Op::Jal => match insn.rd {
            0 => format!("j {target:#x}"),
            1 => format!("jal {target:#x}"),
            _ => format!("jal {rd}, {target:#x}"),
        },
        Op::Jalr => jalr(insn),
        Op::Branch(cond) => branch(insn, cond, target),
        Op::Load { width, signed } => {
            let name = match (width, signed) {
                (1, true) => "lb",
                (2, true) => "lh",
                (4, true) => "lw",
                (1, false) => "lbu",
                (2, false) => "lhu",
                (4, false) => "lwu",
                _ => "ld",
            };
            format!("{name} {rd}, {imm}({rs1})")
        }
        Op::Store { width } => format!("{} {rs2}, {imm}({rs1})", store_name(width)),
        Op::AluImm(op) => alu_imm(insn, op),
        Op::Alu(op) => alu(insn, op),
        Op::Mul(op) => format!("{} {rd}, {rs1}, {rs2}", mul_name(op)),
        Op::Div(op) => format!("{} {rd}, {rs1}, {rs2}", div_name(op)),
        Op::Fence => fence(imm),
        Op::FenceI => "fence.i".into(),
        Op::Ecall => "ecall".into(),
        Op::Ebreak => "ebreak".into(),
        Op::Sret => "sret".into(),
        Op::Mret => "mret".into(),
        Op::Wfi => "wfi".into(),
        Op::SfenceVma => match (insn.rs1, insn.rs2) {
            (0, 0) => "sfence.vma".into(),
            (_, 0) => format!("sfence.vma {rs1}"),
            _ => format!("sfence.vma {rs1}, {rs2}"),
        },
        Op::Csr(op) => csr(insn, op),
        Op::Lr { width } => format!("lr.{}{} {rd}, ({rs1})", w_or_d(width), aqrl(insn)),
        Op::Sc { width } => format!("sc.{}{} {rd}, {rs2}, ({rs1})", w_or_d(width), aqrl(insn)),
        Op::Amo { width, op } => format!(
            "amo{}.{}{} {rd}, {rs2}, ({rs1})",
            amo_name(op),
            w_or_d(width),
            aqrl(insn)
        ),
        Op::FpLoad { width } => {
            let name = if width == 4 { "flw" } else { "fld" };
            format!("{name} {}, {imm}({rs1})", freg(insn.rd))
        }
        Op::FpStore { width } => {
            let name = if width == 4 { "fsw" } else { "fsd" };
            format!("{name} {}, {imm}({rs1})", freg(insn.rs2))
        }
        Op::Fp => fp::disasm(insn),
        // Detailed vector disassembly belongs to the vector module; this is
        // the assembler's raw-encoding syntax, so the text still round-trips.
        Op::Vector => format!(".insn 4, {:#010x}", insn.raw),
    }
}

/// `jalr` with objdump's `ret`/`jr`/`jalr rs` shorthands for rd = x0 and x1.
fn jalr(insn: &Insn) -> String {
    let (rd, rs1) = (xreg(insn.rd), xreg(insn.rs1));
    let target = match insn.imm {
        0 => rs1.to_string(),
        off => format!("{off}({rs1})"),
    };
    match insn.rd {
        0 if insn.rs1 == 1 && insn.imm == 0 => "ret".into(),
        0 => format!("jr {target}"),
        1 => format!("jalr {target}"),
        _ => format!("jalr {rd}, {target}"),
    }
}

fn branch(insn: &Insn, cond: BranchCond, target: u64) -> String {
    let (rs1, rs2) = (xreg(insn.rs1), xreg(insn.rs2));
    let zero1 = insn.rs1 == 0;
    let zero2 = insn.rs2 == 0;
    match cond {
        BranchCond::Beq if zero2 => format!("beqz {rs1}, {target:#x}"),
        BranchCond::Bne if zero2 => format!("bnez {rs1}, {target:#x}"),
        BranchCond::Blt if zero2 => format!("bltz {rs1}, {target:#x}"),
        BranchCond::Blt if zero1 => format!("bgtz {rs2}, {target:#x}"),
        // objdump prefers blez for `bge zero, zero`.
        BranchCond::Bge if zero1 => format!("blez {rs2}, {target:#x}"),
        BranchCond::Bge if zero2 => format!("bgez {rs1}, {target:#x}"),
        _ => {
            let name = match cond {
                BranchCond::Beq => "beq",
                BranchCond::Bne => "bne",
                BranchCond::Blt => "blt",
                BranchCond::Bge => "bge",
                BranchCond::Bltu => "bltu",
                BranchCond::Bgeu => "bgeu",
            };
            format!("{name} {rs1}, {rs2}, {target:#x}")
        }
    }
}

fn alu_imm(insn: &Insn, op: AluOp) -> String {
    let (rd, rs1, imm) = (xreg(insn.rd), xreg(insn.rs1), insn.imm);
    let name = match op {
        AluOp::Add if insn.rd == 0 && insn.rs1 == 0 && imm == 0 => return "nop".into(),
        AluOp::Add if insn.rs1 == 0 => return format!("li {rd}, {imm}"),
        AluOp::Add if imm == 0 => return format!("mv {rd}, {rs1}"),
        AluOp::Sltu if imm == 1 => return format!("seqz {rd}, {rs1}"),
        AluOp::Xor if imm == -1 => return format!("not {rd}, {rs1}"),
        AluOp::And if imm == 255 => return format!("zext.b {rd}, {rs1}"),
        AluOp::AddW if imm == 0 => return format!("sext.w {rd}, {rs1}"),
        // objdump prints shift amounts in hex.
        AluOp::Sll => return format!("slli {rd}, {rs1}, {imm:#x}"),
        AluOp::Srl => return format!("srli {rd}, {rs1}, {imm:#x}"),
        AluOp::Sra => return format!("srai {rd}, {rs1}, {imm:#x}"),
        AluOp::SllW => return format!("slliw {rd}, {rs1}, {imm:#x}"),
        AluOp::SrlW => return format!("srliw {rd}, {rs1}, {imm:#x}"),
        AluOp::SraW => return format!("sraiw {rd}, {rs1}, {imm:#x}"),
        AluOp::Add => "addi",
        AluOp::Slt => "slti",
        AluOp::Sltu => "sltiu",
        AluOp::Xor => "xori",
        AluOp::Or => "ori",
        AluOp::And => "andi",
        AluOp::AddW => "addiw",
        // No I-type encoding exists; only reachable from a hand-built Insn.
        AluOp::Sub | AluOp::SubW => alu_name(op),
    };
    format!("{name} {rd}, {rs1}, {imm}")
}

fn alu(insn: &Insn, op: AluOp) -> String {
    let (rd, rs1, rs2) = (xreg(insn.rd), xreg(insn.rs1), xreg(insn.rs2));
    match op {
        AluOp::Add if insn.len == 2 && insn.rs1 == 0 => format!("mv {rd}, {rs2}"),
        AluOp::Sub if insn.rs1 == 0 => format!("neg {rd}, {rs2}"),
        AluOp::SubW if insn.rs1 == 0 => format!("negw {rd}, {rs2}"),
        AluOp::Slt if insn.rs2 == 0 => format!("sltz {rd}, {rs1}"),
        AluOp::Slt if insn.rs1 == 0 => format!("sgtz {rd}, {rs2}"),
        AluOp::Sltu if insn.rs1 == 0 => format!("snez {rd}, {rs2}"),
        _ => format!("{} {rd}, {rs1}, {rs2}", alu_name(op)),
    }
}

/// objdump names compressed HINTs (and c.addi's zero-immediate HINT) by
/// their compressed mnemonic, since the expansion would read as a real
/// operation (unprivileged spec §16.7 "HINT Instructions", Table 16.3).
fn compressed_hint(insn: &Insn) -> Option<String> {
    let raw = insn.raw;
    let (rd, rs2) = (xreg(insn.rd), xreg(insn.rs2));
    let quadrant_funct3 = (raw & 3, (raw >> 13) & 7);
    let shamt_zero = insn.imm == 0;
    Some(match (quadrant_funct3, insn.op) {
        ((1, 0), _) if insn.rd == 0 && insn.imm != 0 => format!("c.nop {}", insn.imm),
        ((1, 0), _) if insn.rd != 0 && insn.imm == 0 => format!("addi {rd}, {rd}, 0"),
        ((1, 2), _) if insn.rd == 0 => format!("c.li zero, {}", insn.imm),
        ((1, 3), Op::Lui) if insn.rd == 0 => {
            format!("c.lui zero, {:#x}", (insn.imm >> 12) & 0xfffff)
        }
        ((1, 4), Op::AluImm(AluOp::Srl)) if shamt_zero => format!("c.srli64 {rd}"),
        ((1, 4), Op::AluImm(AluOp::Sra)) if shamt_zero => format!("c.srai64 {rd}"),
        ((2, 0), _) if shamt_zero => format!("c.slli64 {rd}"),
        ((2, 0), _) if insn.rd == 0 => format!("c.slli zero, {:#x}", insn.imm),
        // c.mv and c.add with rd = x0 expand alike; bit 12 tells them apart.
        ((2, 4), Op::Alu(AluOp::Add)) if insn.rd == 0 => {
            let name = if raw & (1 << 12) == 0 {
                "c.mv"
            } else {
                "c.add"
            };
            format!("{name} zero, {rs2}")
        }
        _ => return None,
    })
}

/// FENCE pred/succ sets print as subsets of "iorw" (§2.7).
fn fence(imm: i64) -> String {
    let (fm, pred, succ) = ((imm >> 8) & 0xf, (imm >> 4) & 0xf, imm & 0xf);
    let set = |bits: i64| -> String {
        if bits == 0 {
            return "0".into();
        }
        "iorw"
            .chars()
            .enumerate()
            .filter(|(i, _)| bits & (8 >> i) != 0)
            .map(|(_, c)| c)
            .collect()
    };
    match (fm, pred, succ) {
        (8, 0b0011, 0b0011) => "fence.tso".into(),
        (0, 0b1111, 0b1111) => "fence".into(),
        // Zihintpause: PAUSE is FENCE with pred = W, succ = 0, fm = 0.
        (0, 0b0001, 0) => "pause".into(),
        _ => format!("fence {}, {}", set(pred), set(succ)),
    }
}

/// Zicsr with objdump's pseudo-instructions (unprivileged spec ch. 9 and
/// ch. 25 "RISC-V Assembly Programmer's Handbook").
fn csr(insn: &Insn, op: CsrOp) -> String {
    // csrrw x0, cycle, x0: the canonical 32-bit "unimp" (writes a read-only CSR).
    if insn.raw == 0xc000_1073 {
        return "unimp".into();
    }
    let (rd, rs1) = (xreg(insn.rd), xreg(insn.rs1));
    let uimm = insn.rs1;
    let name = csr_name(insn.csr).map_or_else(|| format!("{:#x}", insn.csr), str::to_string);
    let quiet = insn.rd == 0;
    let fp_alias = match insn.csr {
        0x001 => Some("flags"),
        0x002 => Some("rm"),
        0x003 => Some("csr"),
        _ => None,
    };
    match op {
        CsrOp::Rs if insn.rs1 == 0 => match (insn.csr, fp_alias) {
            (0xc00..=0xc02, _) => format!("rd{name} {rd}"),
            (_, Some(f)) => format!("fr{f} {rd}"),
            _ => format!("csrr {rd}, {name}"),
        },
        CsrOp::Rw => match fp_alias {
            Some(f) if quiet => format!("fs{f} {rs1}"),
            Some(f) => format!("fs{f} {rd}, {rs1}"),
            None if quiet => format!("csrw {name}, {rs1}"),
            None => format!("csrrw {rd}, {name}, {rs1}"),
        },
        CsrOp::Rwi if insn.csr == 0x001 || insn.csr == 0x002 => {
            let f = if insn.csr == 1 { "flags" } else { "rm" };
            if quiet {
                format!("fs{f}i {uimm}")
            } else {
                format!("fs{f}i {rd}, {uimm}")
            }
        }
        CsrOp::Rs if quiet => format!("csrs {name}, {rs1}"),
        CsrOp::Rc if quiet => format!("csrc {name}, {rs1}"),
        CsrOp::Rwi if quiet => format!("csrwi {name}, {uimm}"),
        CsrOp::Rsi if quiet => format!("csrsi {name}, {uimm}"),
        CsrOp::Rci if quiet => format!("csrci {name}, {uimm}"),
        CsrOp::Rs => format!("csrrs {rd}, {name}, {rs1}"),
        CsrOp::Rc => format!("csrrc {rd}, {name}, {rs1}"),
        CsrOp::Rwi => format!("csrrwi {rd}, {name}, {uimm}"),
        CsrOp::Rsi => format!("csrrsi {rd}, {name}, {uimm}"),
        CsrOp::Rci => format!("csrrci {rd}, {name}, {uimm}"),
    }
}

fn aqrl(insn: &Insn) -> &'static str {
    match (insn.aq(), insn.rl()) {
        (true, true) => ".aqrl",
        (true, false) => ".aq",
        (false, true) => ".rl",
        (false, false) => "",
    }
}

fn w_or_d(width: u8) -> &'static str {
    if width == 4 { "w" } else { "d" }
}

fn store_name(width: u8) -> &'static str {
    match width {
        1 => "sb",
        2 => "sh",
        4 => "sw",
        _ => "sd",
    }
}

fn alu_name(op: AluOp) -> &'static str {
    match op {
        AluOp::Add => "add",
        AluOp::Sub => "sub",
        AluOp::Sll => "sll",
        AluOp::Slt => "slt",
        AluOp::Sltu => "sltu",
        AluOp::Xor => "xor",
        AluOp::Srl => "srl",
        AluOp::Sra => "sra",
        AluOp::Or => "or",
        AluOp::And => "and",
        AluOp::AddW => "addw",
        AluOp::SubW => "subw",
        AluOp::SllW => "sllw",
        AluOp::SrlW => "srlw",
        AluOp::SraW => "sraw",
    }
}

fn mul_name(op: MulOp) -> &'static str {
    match op {
        MulOp::Mul => "mul",
        MulOp::Mulh => "mulh",
        MulOp::Mulhsu => "mulhsu",
        MulOp::Mulhu => "mulhu",
        MulOp::MulW => "mulw",
    }
}

fn div_name(op: DivOp) -> &'static str {
    match op {
        DivOp::Div => "div",
        DivOp::Divu => "divu",
        DivOp::Rem => "rem",
        DivOp::Remu => "remu",
        DivOp::DivW => "divw",
        DivOp::DivuW => "divuw",
        DivOp::RemW => "remw",
        DivOp::RemuW => "remuw",
    }
}

fn amo_name(op: AmoOp) -> &'static str {
    match op {
        AmoOp::Swap => "swap",
        AmoOp::Add => "add",
        AmoOp::Xor => "xor",
        AmoOp::And => "and",
        AmoOp::Or => "or",
        AmoOp::Min => "min",
        AmoOp::Max => "max",
        AmoOp::Minu => "minu",
        AmoOp::Maxu => "maxu",
    }
}

/// The absolute target of a pc-relative jump or branch (`jal`, `Bxx` and
/// their compressed forms: unprivileged spec §2.5, target = pc + offset).
pub fn jump_target(insn: &Insn, pc: u64) -> Option<u64> {
    match insn.op {
        Op::Jal | Op::Branch(_) => Some(pc.wrapping_add(insn.imm as u64)),
        _ => None,
    }
}

/// [`disasm`] with a jump's or branch's target printed by `name` (such as
/// `sym+0x1c`) in place of its hex address, where `name` knows one.
pub fn disasm_named(insn: &Insn, pc: u64, name: impl Fn(u64) -> Option<String>) -> String {
    let text = disasm(insn, pc);
    let Some(t) = jump_target(insn, pc) else {
        return text;
    };
    match (text.strip_suffix(&format!("{t:#x}")), name(t)) {
        (Some(head), Some(n)) => format!("{head}{n}"),
        _ => text,
    }
}

/// The address an `auipc` and the instruction after it form together
/// (unprivileged spec §2.4: AUIPC adds its upper immediate to its own pc;
/// `la`, `call` and pc-relative loads and stores add the low 12 bits in the
/// next instruction, which takes the auipc's rd as its base).
pub fn pair_target(prev: &Insn, prev_pc: u64, insn: &Insn) -> Option<u64> {
    if prev.op != Op::Auipc || prev.rd == 0 || insn.rs1 != prev.rd {
        return None;
    }
    let base = prev_pc.wrapping_add(prev.imm as u64);
    match insn.op {
        Op::AluImm(AluOp::Add)
        | Op::Load { .. }
        | Op::Store { .. }
        | Op::FpLoad { .. }
        | Op::FpStore { .. }
        | Op::Jalr => Some(base.wrapping_add(insn.imm as u64)),
        _ => None,
    }
}
