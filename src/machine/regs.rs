//! Register access through unicorn, with the privilege switch that CSR access
//! needs (docs/decisions.md D3: unicorn's CSR writes fail silently while the
//! hart is in a lower privilege than the CSR's).

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::trace::Priv;

pub fn gpr_id(i: u8) -> i32 {
    R::X0 as i32 + i32::from(i & 31)
}

pub fn read_gpr<D>(uc: &Unicorn<'_, D>, i: u8) -> u64 {
    if i == 0 {
        return 0;
    }
    uc.reg_read(gpr_id(i)).unwrap_or(0)
}

pub fn write_gpr<D>(uc: &mut Unicorn<'_, D>, i: u8, v: u64) {
    if i != 0 {
        let _ = uc.reg_write(gpr_id(i), v);
    }
}

pub fn read_priv<D>(uc: &Unicorn<'_, D>) -> Priv {
    Priv::from_bits(uc.reg_read(R::PRIV).unwrap_or(3))
}

pub fn set_priv<D>(uc: &mut Unicorn<'_, D>, p: Priv) {
    let _ = uc.reg_write(R::PRIV, p.bits());
}

/// The CSRs `csr_reg` knows.
pub const KNOWN_CSRS: [u16; 23] = [
    0x100, 0x104, 0x105, 0x106, 0x140, 0x141, 0x142, 0x143, 0x144, 0x180, 0x300, 0x301, 0x302,
    0x303, 0x304, 0x305, 0x306, 0x340, 0x341, 0x342, 0x343, 0x344, 0xf14,
];

/// The unicorn register for a CSR number, for the CSRs we read or write.
pub fn csr_reg(csr: u16) -> Option<R> {
    Some(match csr {
        0x100 => R::SSTATUS,
        0x104 => R::SIE,
        0x105 => R::STVEC,
        0x106 => R::SCOUNTEREN,
        0x140 => R::SSCRATCH,
        0x141 => R::SEPC,
        0x142 => R::SCAUSE,
        0x143 => R::STVAL,
        0x144 => R::SIP,
        0x180 => R::SATP,
        0x300 => R::MSTATUS,
        0x301 => R::MISA,
        0x302 => R::MEDELEG,
        0x303 => R::MIDELEG,
        0x304 => R::MIE,
        0x305 => R::MTVEC,
        0x306 => R::MCOUNTEREN,
        0x340 => R::MSCRATCH,
        0x341 => R::MEPC,
        0x342 => R::MCAUSE,
        0x343 => R::MTVAL,
        0x344 => R::MIP,
        0xf14 => R::MHARTID,
        _ => return None,
    })
}

/// The lowest privilege that may access `csr` (priv spec §2.1, bits 9:8).
pub fn csr_min_priv(csr: u16) -> Priv {
    match (csr >> 8) & 3 {
        0 => Priv::U,
        1 | 2 => Priv::S,
        _ => Priv::M,
    }
}

/// Runs `f` with the hart in M-mode if it is lower, then puts it back.
/// Raising to M only when needed keeps unicorn's reservation intact in the
/// common case (its mode switch clears it).
pub fn with_priv<D, T>(
    uc: &mut Unicorn<'_, D>,
    need: Priv,
    f: impl FnOnce(&mut Unicorn<'_, D>) -> T,
) -> T {
    let cur = read_priv(uc);
    if cur >= need {
        return f(uc);
    }
    set_priv(uc, Priv::M);
    let out = f(uc);
    set_priv(uc, cur);
    out
}

/// Reads a CSR through unicorn (raw: no VS shadow), whatever the privilege.
pub fn read_csr<D>(uc: &mut Unicorn<'_, D>, csr: u16) -> Option<u64> {
    let reg = csr_reg(csr)?;
    // With mstatus.TVM=1, satp is out of S-mode's reach (priv spec
    // §3.1.6.5), and QEMU then leaves the value read uninitialised.
    let need = if csr == 0x180 {
        Priv::M
    } else {
        csr_min_priv(csr)
    };
    with_priv(uc, need, |uc| uc.reg_read(reg).ok())
}

pub fn write_csr<D>(uc: &mut Unicorn<'_, D>, csr: u16, v: u64) -> bool {
    let Some(reg) = csr_reg(csr) else {
        return false;
    };
    with_priv(uc, csr_min_priv(csr), |uc| uc.reg_write(reg, v).is_ok())
}

pub mod status {
    //! mstatus/sstatus fields (priv spec §3.1.6, §4.1.1).
    pub const SIE: u64 = 1 << 1;
    pub const MIE: u64 = 1 << 3;
    pub const SPIE: u64 = 1 << 5;
    pub const MPIE: u64 = 1 << 7;
    pub const SPP: u64 = 1 << 8;
    pub const VS_SHIFT: u32 = 9;
    pub const VS: u64 = 3 << VS_SHIFT;
    pub const MPP_SHIFT: u32 = 11;
    pub const MPP: u64 = 3 << MPP_SHIFT;
    pub const FS: u64 = 3 << 13;
    pub const XS: u64 = 3 << 15;
    pub const SUM: u64 = 1 << 18;
    pub const TVM: u64 = 1 << 20;
    pub const TW: u64 = 1 << 21;
    pub const TSR: u64 = 1 << 22;
    /// Fields QEMU 5.0 misplaces (it has TW and TSR at bits 29 and 30), kept
    /// in `Hart::status_extra`.
    pub const SHADOWED: u64 = TW | TSR;
    pub const UXL_SHIFT: u32 = 32;
    pub const UXL: u64 = 3 << UXL_SHIFT;
    pub const SXL_SHIFT: u32 = 34;
    pub const SXL: u64 = 3 << SXL_SHIFT;
    /// The xXL encoding of XLEN 64 (priv spec §3.1.6.2, misa.MXL table).
    pub const XL64: u64 = 2;
    pub const SD: u64 = 1 << 63;

    /// Merges the VS shadow into a status value and derives SD, which is
    /// read-only and set when FS, VS or XS is Dirty (§3.1.6.6).
    pub fn compose(raw: u64, vs: u8) -> u64 {
        let v = (raw & !(VS | SD)) | (u64::from(vs & 3) << VS_SHIFT);
        let dirty = (v & FS) == FS || (v & VS) == VS || (v & XS) == XS;
        if dirty { v | SD } else { v }
    }
}
