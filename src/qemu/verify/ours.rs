//! trapscope's side of `verify`: the machine a snapshot variant runs on,
//! built as `session::build_machine` builds it for a snapshot (the
//! program of `snapshot::variant`, a V unit at the snapshot's VLEN, the
//! hart resumed), but without a scenario's knobs, probes or LR/SC settings,
//! which would change the state compared; run to the marker's n-th
//! execution as `end_at` ends a snapshot's loop; and its state read back
//! in the manifest's form.

use std::rc::Rc;

use super::{RunEnded, VerifyError};
use crate::machine::{Machine, MachineConfig, NoObserver, Outcome, Until};
use crate::session::Refused;
use crate::snapshot::format::{self, Csr, HartDump, Hex, Snapshot, VectorDump};
use crate::trace::Priv;

pub struct Ours {
    pub machine: Machine<NoObserver>,
}

impl Ours {
    /// The machine at the snapshot point. `vmlinux` overrides the path the
    /// snapshot recorded (its build id must be the snapshot's).
    pub fn new(snap: Snapshot, vmlinux: Option<&std::path::Path>) -> Result<Ours, VerifyError> {
        let loaded = crate::snapshot::variant::from_snapshot(snap, vmlinux, None)?;
        let program = Rc::new(loaded.program);
        let mut machine = Machine::with_config(program, NoObserver, MachineConfig::default())?;
        if let Some(v) = &loaded.resume.vector {
            machine.enable_vector(v.vlen);
        }
        machine.resume(&loaded.resume).map_err(Refused::from)?;
        Ok(Ours { machine })
    }

    /// The snapshot's RAM, as the program holds it.
    pub fn stored_ram(&self) -> &[u8] {
        self.machine
            .program
            .segments
            .first()
            .map_or(&[], |s| s.data.as_slice())
    }

    /// Runs until right before the `n`-th execution of `marker` from here
    /// (the one at the snapshot point is the first), within `budget`
    /// instructions. The inner `Err` is how the run ended instead.
    pub fn run_to(
        &mut self,
        marker: u64,
        n: u64,
        budget: u64,
    ) -> Result<Result<(), RunEnded>, VerifyError> {
        self.machine.end_at(marker, n)?;
        let o = self.machine.run(&Until {
            max_insns: Some(budget),
            ..Until::default()
        });
        let m = &self.machine;
        let here = || m.program.place(m.pc());
        Ok(match o {
            Outcome::Exited(0) if m.loop_ended() => Ok(()),
            Outcome::Interrupted => return Err(VerifyError::Interrupted),
            Outcome::Exited(code) => Err(RunEnded::Exited { code, at: here() }),
            Outcome::Budget => Err(RunEnded::Budget { budget, at: here() }),
            Outcome::Fault(f) => Err(RunEnded::Fault(f)),
            other => Err(RunEnded::Stopped {
                outcome: format!("{other:?}"),
                at: here(),
            }),
        })
    }

    /// The hart as the manifest records one: every CSR `resume` restores,
    /// as the guest reads it; f0–f31 and fcsr when `with_fp` (the hart
    /// QEMU ran had F/D).
    pub fn hart(&mut self, with_fp: bool) -> HartDump {
        let m = &mut self.machine;
        let privilege = match m.priv_() {
            Priv::U => "U",
            Priv::S => "S",
            Priv::M => "M",
        };
        let x = m.gprs().iter().map(|v| Hex(*v)).collect();
        let (f, fcsr) = if with_fp {
            let fp = m.fp_state();
            (fp.f.iter().map(|v| Hex(*v)).collect(), Some(Hex(fp.fcsr)))
        } else {
            (Vec::new(), None)
        };
        let mut csrs = Vec::new();
        for num in (0u16..0x1000).filter(|&n| crate::machine::restorable(n)) {
            if let Some(v) = m.csr(num) {
                csrs.push(Csr {
                    csr: Hex(u64::from(num)),
                    name: crate::isa::csr_name(num).unwrap_or("CSR").to_string(),
                    value: Hex(v),
                });
            }
        }
        let vector = m.vunit().map(|v| VectorDump {
            vlen: v.vlen,
            v: (0..32).map(|i| format::to_hex(v.reg(i))).collect(),
            vl: Hex(v.vl),
            vtype: Hex(v.vtype),
            vstart: Hex(v.vstart),
            vcsr: Hex(v.read_csr(0x00f).unwrap_or(0)),
        });
        HartDump {
            pc: Hex(m.pc()),
            privilege: privilege.into(),
            x,
            f,
            fcsr,
            csrs,
            vector,
        }
    }

    /// `len` bytes of physical memory from `addr`.
    pub fn ram(&self, addr: u64, len: usize) -> Result<Vec<u8>, VerifyError> {
        self.machine
            .read_phys(addr, len)
            .ok_or(VerifyError::NoRam { addr })
    }
}
