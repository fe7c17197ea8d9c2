//! The V unit's state (`VUnit`: v0–v31 and the vector CSRs), what it
//! reaches the hart through (`VHost`) and what running an instruction
//! yields (`Effect`, `VClass`, `VTrap`). A leaf of its own so that decode and
//! execution use them without importing the room's root, which re-exports
//! them and calls into both.

/// What the V unit needs from the hart.
pub trait VHost {
    fn x(&self, r: u8) -> u64;
    fn set_x(&mut self, r: u8, v: u64);
    /// Reads guest memory; `Err(addr)` for an address the guest does not have.
    fn load(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), u64>;
    fn store(&mut self, addr: u64, data: &[u8]) -> Result<(), u64>;
}

/// Why a vector instruction did not complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VTrap {
    /// An illegal-instruction exception the guest must see (e.g. vill set,
    /// a reserved vtype, a misaligned register group).
    Illegal(&'static str),
    /// A memory access to an address the guest does not have.
    Memory { addr: u64, store: bool },
    /// A valid V instruction trapscope does not run.
    Unsupported(String),
}

/// How an instruction used the unit, for the cost model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VClass {
    /// vsetvl, vsetvli, vsetivli.
    Config,
    /// Arithmetic or moves over a register group of `lmul_x8 / 8` registers
    /// (lmul_x8: 1 = mf8 ... 8 = m1 ... 64 = m8).
    Arith { lmul_x8: u32 },
    /// Unit-stride load/store of `vl` elements of `eew` bits.
    UnitStride { store: bool, eew: u32, vl: u64 },
    /// Whole-register load/store of `nregs` registers.
    WholeReg { store: bool, nregs: u32 },
    /// vmv.x.s / vmv.s.x.
    Scalar,
}

/// What `execute` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    /// The instruction changed vector state (registers or vl/vtype/vstart...):
    /// the VS field must become Dirty (priv spec §3.1.6.6).
    pub dirties: bool,
    /// Vector registers written (bit i = v_i).
    pub written: u32,
    pub class: VClass,
}

/// The vector CSRs (V spec §3): vstart 0x008, vxsat 0x009, vxrm 0x00a,
/// vcsr 0x00f, vl 0xc20, vtype 0xc21, vlenb 0xc22.
pub const VCSRS: [u16; 7] = [0x008, 0x009, 0x00a, 0x00f, 0xc20, 0xc21, 0xc22];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VUnit {
    /// Bits per register.
    pub vlen: u32,
    /// 32 registers of vlen/8 bytes, v0 first.
    pub regs: Vec<u8>,
    pub vl: u64,
    pub vtype: u64,
    pub vstart: u64,
    pub vxrm: u8,
    pub vxsat: u8,
}

impl VUnit {
    /// A unit at reset: registers zero, vtype.vill set (V spec §3.4.4 lets
    /// the reset state be anything; vill makes misuse visible).
    pub fn new(vlen: u32) -> VUnit {
        VUnit {
            vlen,
            regs: vec![0; 32 * (vlen as usize / 8)],
            vl: 0,
            vtype: 1 << 63,
            vstart: 0,
            vxrm: 0,
            vxsat: 0,
        }
    }

    pub fn vlenb(&self) -> u64 {
        u64::from(self.vlen / 8)
    }

    /// Register `i` as bytes (empty past v31).
    pub fn reg(&self, i: usize) -> &[u8] {
        let n = self.vlen as usize / 8;
        self.regs.get(i * n..(i + 1) * n).unwrap_or(&[])
    }

    /// Reads a vector CSR.
    pub fn read_csr(&self, csr: u16) -> Option<u64> {
        Some(match csr {
            0x008 => self.vstart,
            0x009 => u64::from(self.vxsat),
            0x00a => u64::from(self.vxrm),
            0x00f => u64::from(self.vxrm) << 1 | u64::from(self.vxsat),
            0xc20 => self.vl,
            0xc21 => self.vtype,
            0xc22 => self.vlenb(),
            _ => return None,
        })
    }

    /// Writes a writable vector CSR; `false` for read-only or unknown ones.
    pub fn write_csr(&mut self, csr: u16, v: u64) -> bool {
        match csr {
            0x008 => self.vstart = v & u64::from(self.vlen).saturating_sub(1),
            0x009 => self.vxsat = (v & 1) as u8,
            0x00a => self.vxrm = (v & 3) as u8,
            0x00f => {
                self.vxsat = (v & 1) as u8;
                self.vxrm = ((v >> 1) & 3) as u8;
            }
            _ => return false,
        }
        true
    }
}
