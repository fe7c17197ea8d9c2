//! `trapscope snapshot`: boot a guest in qemu-system-riscv64, stop it at the
//! N-th execution of its loop's marker (an `ecall`, or any instruction run
//! once per iteration) through the gdbstub, and write the
//! machine's state (format.rs).
//!
//! The guest is a Linux kernel (`Image`, with its `vmlinux` for the build id
//! and symbols) running trapscope's own `/init` (assets/init/), or a
//! bare-metal ELF booted with `-bios none` (trapscope's minikernel: CI tests
//! the path on it). The live session (`Booted`) is public so that tests can
//! let QEMU run on past the snapshot as the oracle.

use std::path::Path;

use crate::qemu;
use crate::snapshot::format;

mod booted;
mod config;
mod dump;
mod error;
mod guest;
mod out;
mod run;
mod step;
mod tick;
pub use booted::{Booted, SCRATCH};
pub use config::{Config, DEFAULT_MEM_MIB, Guest, LINUX_APPEND, RAM_BASE, REPRODUCIBLE};
use error::ordinal;
pub use error::{GuestError, OutError, StopError, TakeError};
pub use tick::S_TIMER;

pub use crate::snapshot::format::QEMU_VIRT_TIMEBASE_HZ;

/// `trapscope snapshot`: boot, stop at the `at`-th ecall, mask interrupts,
/// save, and stop QEMU.
pub fn take(cfg: &Config, out: &Path, progress: &mut dyn FnMut(&str)) -> Result<(), TakeError> {
    if cfg.at == 0 {
        return Err(TakeError::AtZero);
    }
    // A snapshot's RAM is at most what the emulator can load (format.rs
    // checks it on load too).
    if cfg.mem_mib == 0 || cfg.mem_mib > format::RAM_MAX_MIB {
        return Err(TakeError::Mem { mib: cfg.mem_mib });
    }
    reap_stale(out);
    let target = out::prepare_out(out)?;
    let mut b = Booted::start(cfg, progress)?;
    if cfg.ticks {
        b.run_to_tick(cfg.at, progress)?;
        progress(&format!(
            "stopped at the kernel's entry for the {} timer interrupt at {}; dumping registers and {} MiB of RAM (interrupts left on)",
            ordinal(cfg.at),
            cfg.ecall_symbol,
            cfg.mem_mib
        ));
    } else {
        b.run_to(cfg.at, progress)?;
        progress(&format!(
            "stopped at the {} {}; dumping registers and {} MiB of RAM",
            ordinal(cfg.at),
            cfg.ecall_symbol,
            cfg.mem_mib
        ));
        b.quiesce()?;
    }
    // Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) during the dump: a new DIR is
    // never put in place, and the partial one is removed as it drops.
    let interrupted = crate::machine::sigint::requested;
    match target {
        out::Out::InPlace => b.save(out)?,
        out::Out::New => {
            let partial = out::partial(out)?;
            b.save(partial.path())?;
            if interrupted() {
                return Err(TakeError::Interrupted);
            }
            out::finish(partial, out)?;
        }
    }
    if interrupted() {
        return Err(TakeError::Interrupted);
    }
    progress(&format!("wrote {}", out.display()));
    Ok(())
}

/// Removes what runs killed outright (SIGKILL runs no destructor) left:
/// their scratch directories in TMPDIR and a partial `-o DIR` beside this
/// one (`output::reap_stale`: only a dead run's own). Silent: nothing it
/// removes is anyone's.
fn reap_stale(out: &Path) {
    let tmp = std::env::temp_dir();
    crate::output::reap_stale(&tmp, SCRATCH);
    crate::output::reap_stale(&tmp, qemu::DTB_SCRATCH);
    crate::output::reap_stale(crate::output::dir_of(out), out::PARTIAL);
}
