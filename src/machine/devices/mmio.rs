//! The platform devices mapped into unicorn (`mmio_map`): each access runs
//! the device in `crate::platform` with the hart's state at hand. A read of
//! mtime sees the model time at the reading instruction; a write that
//! changes an interrupt input defers interrupt checks (see `interrupt`); a
//! write to the test device ends the run as `tohost` does.

use unicorn_engine::Unicorn;

use crate::machine::error::LoadError;
use crate::machine::guard;
use crate::machine::hart::{Hart, Outcome};
use crate::machine::observe::Observer;
use crate::platform::{self, Finish, Region};
use crate::program::Program;

/// Refuses a guest segment that overlaps a device.
pub(in crate::machine) fn check_segments(program: &Program) -> Result<(), LoadError> {
    for (i, s) in program.segments.iter().enumerate() {
        let end = s.vaddr.saturating_add(s.memsz);
        if let Some(r) = platform::overlapping(s.vaddr, end) {
            return Err(LoadError::OverDevice {
                path: program.path.clone(),
                index: i,
                start: s.vaddr,
                end,
                device: r.name,
                dev_start: r.base,
                dev_end: r.end(),
            });
        }
    }
    Ok(())
}

fn map_err(r: Region, e: unicorn_engine::unicorn_const::uc_error) -> LoadError {
    LoadError::MapDevice {
        device: r.name,
        base: r.base,
        err: crate::machine::error::Uc(e),
    }
}

/// Maps every device.
pub(in crate::machine) fn map<O: Observer + 'static>(
    uc: &mut Unicorn<'static, Hart<O>>,
) -> Result<(), LoadError> {
    let r = platform::CLINT;
    uc.mmio_map(
        r.base,
        r.size as usize,
        Some(
            move |uc: &mut Unicorn<'_, Hart<O>>, off: u64, size: usize| {
                guard::shield(uc, 0, |uc| {
                    let mtime = if off >= platform::clint::MTIME {
                        let k = crate::machine::devices::pending::access_index(uc, r.base + off)
                            .unwrap_or(0);
                        let at = uc
                            .get_data()
                            .pending
                            .as_ref()
                            .and_then(|p| p.block.insns.get(k).map(|d| d.pc));
                        let hart = uc.get_data_mut();
                        hart.clock.clock_reads.0 += 1;
                        if hart.clock.clock_reads.1.is_none() {
                            hart.clock.clock_reads.1 = at;
                        }
                        crate::machine::devices::pending::time_at(uc.get_data(), k)
                    } else {
                        0
                    };
                    uc.get_data().devices.platform.clint.read(off, size, mtime)
                })
            },
        ),
        Some(
            move |uc: &mut Unicorn<'_, Hart<O>>, off: u64, size: usize, v: u64| {
                guard::shield(uc, (), |uc| {
                    let hart = uc.get_data_mut();
                    if hart.devices.platform.clint.write(off, size, v) {
                        hart.devices.irq_defer = true;
                    }
                })
            },
        ),
    )
    .map_err(|e| map_err(r, e))?;

    let r = platform::PLIC;
    uc.mmio_map(
        r.base,
        r.size as usize,
        Some(|uc: &mut Unicorn<'_, Hart<O>>, off: u64, size: usize| {
            guard::shield(uc, 0, |uc| {
                let hart = uc.get_data_mut();
                let before = hart.devices.platform.plic.asserted(platform::plic::CTX_M)
                    || hart.devices.platform.plic.asserted(platform::plic::CTX_S);
                let v = hart.devices.platform.plic.read(off, size);
                if before {
                    hart.devices.irq_defer = true; // a claim lowers a line
                }
                v
            })
        }),
        Some(
            |uc: &mut Unicorn<'_, Hart<O>>, off: u64, size: usize, v: u64| {
                guard::shield(uc, (), |uc| {
                    let hart = uc.get_data_mut();
                    if hart.devices.platform.plic.write(off, size, v) {
                        hart.devices.irq_defer = true;
                    }
                })
            },
        ),
    )
    .map_err(|e| map_err(r, e))?;

    let r = platform::UART;
    uc.mmio_map(
        r.base,
        r.size as usize,
        Some(|uc: &mut Unicorn<'_, Hart<O>>, off: u64, _size: usize| {
            guard::shield(uc, 0, |uc| {
                u64::from(uc.get_data().devices.platform.uart.read(off))
            })
        }),
        Some(
            |uc: &mut Unicorn<'_, Hart<O>>, off: u64, _size: usize, v: u64| {
                guard::shield(uc, (), |uc| {
                    uc.get_data_mut().devices.platform.uart.write(off, v as u8)
                });
            },
        ),
    )
    .map_err(|e| map_err(r, e))?;

    let r = platform::TEST;
    uc.mmio_map(
        r.base,
        r.size as usize,
        Some(|_: &mut Unicorn<'_, Hart<O>>, _off: u64, _size: usize| 0u64),
        Some(
            move |uc: &mut Unicorn<'_, Hart<O>>, off: u64, _size: usize, v: u64| {
                guard::shield(uc, (), |uc| {
                    if let Some(f) = uc.get_data_mut().devices.platform.test.write(off, v) {
                        finish_run(uc, r.base + off, f);
                    }
                })
            },
        ),
    )
    .map_err(|e| map_err(r, e))?;
    Ok(())
}

/// The test device ended the run: the same path as a write to `tohost`.
fn finish_run<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, addr: u64, f: Finish) {
    let pc = crate::machine::devices::pending::access_index(uc, addr)
        .and_then(|i| {
            let p = uc.get_data().pending.as_ref()?;
            p.block.insns.get(i).map(|d| d.pc)
        })
        .unwrap_or(0);
    let code = f.code();
    let hart = uc.get_data_mut();
    if hart.run.exit.is_some() {
        return;
    }
    hart.run.exit = Some((code, pc));
    if hart.run.account {
        hart.run.stop = Some(Outcome::Exited(code));
    } else {
        hart.run.outcome = Some(Outcome::Exited(code));
        let _ = uc.emu_stop();
    }
}
