//! Register and CSR names as GNU objdump prints them.

/// ABI names of x0..x31 (psABI "Integer Register Convention").
pub const ABI: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

/// ABI names of f0..f31 (psABI "Floating-point Register Convention").
pub const FABI: [&str; 32] = [
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
    "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
    "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
];

/// ABI name of integer register `r` (only the low 5 bits count).
pub fn xreg(r: u8) -> &'static str {
    ABI[usize::from(r & 31)]
}

/// ABI name of floating-point register `r` (only the low 5 bits count).
pub fn freg(r: u8) -> &'static str {
    FABI[usize::from(r & 31)]
}

/// Name of a CSR trapscope cares about; `None` for the rest, which callers
/// print in hex as objdump does.
///
/// Numbers from the privileged spec 20211203 §2.2 "CSR Listing"; the vector
/// CSRs from the V spec 1.0 §3 "Vector Extension Programmer's Model".
pub fn csr_name(csr: u16) -> Option<&'static str> {
    Some(match csr {
        0x001 => "fflags",
        0x002 => "frm",
        0x003 => "fcsr",
        0x008 => "vstart",
        0x009 => "vxsat",
        0x00a => "vxrm",
        0x00f => "vcsr",
        0x100 => "sstatus",
        0x104 => "sie",
        0x105 => "stvec",
        0x106 => "scounteren",
        0x140 => "sscratch",
        0x141 => "sepc",
        0x142 => "scause",
        0x143 => "stval",
        0x144 => "sip",
        0x180 => "satp",
        0x300 => "mstatus",
        0x301 => "misa",
        0x302 => "medeleg",
        0x303 => "mideleg",
        0x304 => "mie",
        0x305 => "mtvec",
        0x306 => "mcounteren",
        0x340 => "mscratch",
        0x341 => "mepc",
        0x342 => "mcause",
        0x343 => "mtval",
        0x344 => "mip",
        // Debug spec 1.0, "Sdtrig" (trigger module registers).
        0x7a0 => "tselect",
        0x7a1 => "tdata1",
        0x7a2 => "tdata2",
        0x7a3 => "tdata3",
        0x7a4 => "tinfo",
        0x7a5 => "tcontrol",
        0xb00 => "mcycle",
        0xb02 => "minstret",
        0xc00 => "cycle",
        0xc01 => "time",
        0xc02 => "instret",
        0xc20 => "vl",
        0xc21 => "vtype",
        0xc22 => "vlenb",
        0xf14 => "mhartid",
        _ => return None,
    })
}
