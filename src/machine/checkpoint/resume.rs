//! Starting the hart from a saved state instead of the ELF's entry: a
//! snapshot of a machine that QEMU ran (a real kernel stopped at a syscall).
//!
//! Every register goes where trapscope keeps it: GPRs, FPRs and the CSRs
//! unicorn holds into unicorn; sstatus.VS, TSR and TW into the hart's own
//! fields (`csr::status_view`); mie/mip/mideleg into the interrupt shadow
//! (`irq.rs`); the vector state into the V unit; mtimecmp and the UART's
//! registers into the platform devices.

use unicorn_engine::RegisterRISCV as R;

use crate::machine::devices::irq;
use crate::machine::error::{LoadError, ResumeError};
use crate::machine::handle::Machine;
use crate::machine::observe::Observer;
use crate::machine::regs;
use crate::trace::Priv;

/// The vector unit's architectural state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorState {
    pub vlen: u32,
    /// v0..v31, each vlen/8 bytes, little-endian element order.
    pub regs: Vec<Vec<u8>>,
    pub vl: u64,
    pub vtype: u64,
    pub vstart: u64,
    pub vxrm: u8,
    pub vxsat: u8,
}

/// A hart's state to resume from.
#[derive(Clone, Debug, Default)]
pub struct ResumeState {
    pub pc: u64,
    pub priv_: Priv,
    /// x0..x31 (x0 is ignored).
    pub x: [u64; 32],
    /// f0..f31 and fcsr, when the hart has F/D.
    pub f: Option<([u64; 32], u64)>,
    /// CSRs by number. Those trapscope cannot hold (PMP, counters, ...)
    /// are the caller's to report; `resume` says which it skipped.
    pub csrs: Vec<(u16, u64)>,
    pub vector: Option<VectorState>,
    pub mtimecmp: Option<u64>,
    /// mtime when the state was saved: the guest's timer goes on from it
    /// (a kernel's clocks and scheduler never see time go back), counting
    /// the model's cycles from there.
    pub mtime: Option<u64>,
    pub msip: u32,
    /// The rate mtime ticks at on the machine the state was saved on, as
    /// its device tree told the guest (`timebase-frequency`): a run from
    /// it keeps that rate, whatever the core profile's board has, so that
    /// the kernel's idea of time holds (`session::build_machine`).
    pub timebase_hz: Option<u64>,
}

/// The CSRs `resume` writes, in the order it writes them: mstatus before
/// the fields that depend on it, satp last among the S CSRs.
const ORDER: [u16; 20] = [
    0x300, 0x302, 0x303, 0x304, 0x305, 0x306, 0x340, 0x341, 0x342, 0x343, 0x344, 0x105, 0x106,
    0x140, 0x141, 0x142, 0x143, 0x180, 0x104, 0x144,
];

/// Whether `resume` takes this CSR (the rest are recorded, not restored).
pub fn restorable(csr: u16) -> bool {
    ORDER.contains(&csr) || csr == 0x100
}

impl<O: Observer + 'static> Machine<O> {
    /// Puts the hart in `st`. Only the CSRs in `restorable` are written;
    /// sstatus is mstatus's view and is not written on its own.
    pub fn resume(&mut self, st: &ResumeState) -> Result<(), LoadError> {
        regs::set_priv(&mut self.uc, Priv::M);
        // The FP registers before mstatus: writing them marks FS Dirty, and
        // the emulator drops an fcsr write while FS is Off, so FS is on
        // for them and the snapshot's mstatus, written after, sets FS.
        if let Some((f, fcsr)) = &st.f {
            let status = crate::machine::traps::csr_rules::MSTATUS;
            let before = regs::read_csr(&mut self.uc, status).unwrap_or(0);
            regs::write_csr(&mut self.uc, status, before | regs::status::FS);
            for (i, v) in f.iter().enumerate() {
                let _ = self.uc.reg_write(R::F0 as i32 + i as i32, *v);
            }
            // fcsr is frm (7:5) and fflags (4:0); the bits above read 0.
            let want = fcsr & 0xff;
            let _ = self.uc.reg_write(R::FCSR, want);
            if self.uc.reg_read(R::FCSR).ok() != Some(want) {
                return Err(ResumeError::Fcsr(*fcsr).into());
            }
            if !st.csrs.iter().any(|&(c, _)| c == status) {
                regs::write_csr(&mut self.uc, status, before);
            }
        }
        for &csr in &ORDER {
            let Some(&(_, v)) = st.csrs.iter().find(|(c, _)| *c == csr) else {
                continue;
            };
            if irq::is_shadowed(csr) {
                if csr == irq::MIE || csr == irq::MIDELEG || csr == irq::MIP {
                    self.uc.get_data_mut().devices.irq.write(csr, v);
                }
                continue;
            }
            if csr == crate::machine::traps::csr_rules::MSTATUS {
                let hart = self.uc.get_data_mut();
                hart.ext.vs = ((v & regs::status::VS) >> regs::status::VS_SHIFT) as u8;
                hart.traps.status_extra = v & regs::status::SHADOWED;
                let to_qemu = crate::machine::traps::csr_rules::status_to_qemu(v);
                if !regs::write_csr(&mut self.uc, csr, to_qemu) {
                    return Err(ResumeError::Mstatus(v).into());
                }
                continue;
            }
            if !regs::write_csr(&mut self.uc, csr, v) {
                return Err(ResumeError::Csr { csr, value: v }.into());
            }
            // satp is WARL: a mode unicorn lacks reads back as Bare.
            if csr == 0x180 && regs::read_csr(&mut self.uc, csr) != Some(v) {
                return Err(ResumeError::Satp(v).into());
            }
        }
        for i in 1..32u8 {
            regs::write_gpr(&mut self.uc, i, st.x[i as usize]);
        }
        if let Some(v) = &st.vector {
            let unit = self
                .uc
                .get_data_mut()
                .ext
                .vunit
                .as_mut()
                .ok_or(LoadError::NoVectorUnit { vlen: v.vlen })?;
            if unit.vlen != v.vlen {
                return Err(ResumeError::Vlen {
                    taken: v.vlen,
                    core: unit.vlen,
                }
                .into());
            }
            let n = v.vlen as usize / 8;
            for (i, r) in v.regs.iter().enumerate().take(32) {
                if r.len() != n {
                    return Err(ResumeError::VectorSize {
                        reg: i,
                        got: r.len(),
                        vlen: v.vlen,
                        need: n,
                    }
                    .into());
                }
                unit.regs[i * n..(i + 1) * n].copy_from_slice(r);
            }
            unit.vl = v.vl;
            unit.vtype = v.vtype;
            unit.vstart = v.vstart;
            unit.vxrm = v.vxrm & 3;
            unit.vxsat = v.vxsat & 1;
        }
        let hart = self.uc.get_data_mut();
        if let Some(t) = st.mtimecmp {
            hart.devices.platform.clint.mtimecmp = t;
        }
        if let Some(t) = st.mtime {
            hart.clock.time_base = t;
        }
        hart.devices.platform.clint.msip = st.msip & 1;
        self.uc
            .reg_write(R::PC, st.pc)
            .map_err(crate::machine::handle::emu)?;
        regs::set_priv(&mut self.uc, st.priv_);
        self.uc.get_data_mut().priv_ = st.priv_;
        for csr in regs::KNOWN_CSRS {
            if let Some(v) = self.csr(csr) {
                self.uc.get_data_mut().traps.csr_shadow.insert(csr, v);
            }
        }
        crate::machine::ext::fstate::sync(&mut self.uc);
        Ok(())
    }
}
