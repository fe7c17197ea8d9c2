//! Checkpoints of the whole run state, restored into the same live machine
//! (time travel, docs/decisions.md D7). A checkpoint holds:
//!
//! - the CPU: unicorn's context (QEMU's `CPURISCVState` up to its host
//!   pointers: GPRs, FPRs, pc, every CSR, the privilege, the LR
//!   reservation), saved with `uc_context_save` in CPU mode;
//! - RAM: copy-on-write pages under trapscope's control. Each checkpoint is
//!   a list of pointers to 4 KiB pages; a page no store changed since the
//!   previous checkpoint is shared with it, so a checkpoint costs the pages
//!   written since, not the guest's RAM, and only the pages noted as
//!   written are looked at (`dirty.rs`, `memimage.rs`). unicorn's own memory snapshots
//!   (`UC_CTL_CONTEXT_MEMORY`) are levels, where restoring one discards the
//!   newer ones, and they do not mix with `uc_mem_protect`; these are
//!   random access;
//! - trapscope's own state beside unicorn (`HartSaved`: CSR shadows, the V
//!   unit, the VS machine, the reservation tracker, the devices, the
//!   debug trigger, interrupts, fault detection, the trap-frame record);
//! - the observer's (`Rewind`: for `Stats`, the counters, predictors, the
//!   pipeline's state, the call stack and the event log).
//!
//! What is derived from code bytes, not from the run (decoded blocks, the
//! intercept hooks and the code hooks unicorn holds), stays: restoring RAM
//! goes through the path the machine's own writes take (`smc::code_written`),
//! which drops what a changed code byte invalidates, and a different `satp`
//! drops the decoded blocks as an `sfence.vma` would. So a restored machine
//! run on is the machine a run from power-on would be at that point.

pub(in crate::machine) mod dirty;
pub(in crate::machine) mod memimage;
pub(in crate::machine) mod resume;
pub(in crate::machine) mod track;

use std::rc::Rc;

use unicorn_engine::unicorn_const::HookType;

use crate::machine::code::smc;
use crate::machine::error::{CheckpointError, Uc};
use crate::machine::handle::Machine;
use crate::machine::hart::{Hart, Outcome, Pending};
use crate::machine::observe::Observer;
use crate::trace::Priv;

/// A new machine's serial (`Machine::serial`).
pub(in crate::machine) fn next_serial() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

pub use crate::machine::checkpoint::memimage::{MemImage, PAGE};

/// An observer whose state a checkpoint can hold and give back.
pub trait Rewind {
    type Saved;
    fn save(&self) -> Self::Saved;
    /// Back to `s`. Tables keyed by code (decoded blocks' ids) may have
    /// grown since; they stay, and counters they index start from zero.
    fn restore(&mut self, s: &Self::Saved);
    /// Heap bytes `s` holds that no other checkpoint shares.
    fn saved_bytes(s: &Self::Saved) -> usize;
}

impl Rewind for crate::machine::observe::NoObserver {
    type Saved = ();
    fn save(&self) {}
    fn restore(&mut self, _: &()) {}
    fn saved_bytes(_: &()) -> usize {
        0
    }
}

/// trapscope's state beside unicorn's (`Hart`), without what is derived
/// from code (decoded blocks, intercepts, hooks), what the user set (probes,
/// watchpoints) and what each run call resets.
struct HartSaved<D> {
    priv_: Priv,
    vs: u8,
    executed: u64,
    pending: Option<(Rc<crate::machine::code::block::Block<D>>, usize, Priv)>,
    stop: Option<Outcome>,
    csr_shadow: crate::machine::code::pchash::PcMap<u16, u64>,
    exit: Option<(u64, u64)>,
    cycle_offset: i128,
    instret_offset: i128,
    last_trap: Option<(u64, u64)>,
    trapped: u64,
    vunit: Option<crate::vector::VUnit>,
    lrsc: crate::atomics::Tracker,
    probe_resume: Option<u64>,
    status_extra: u64,
    faults: crate::machine::traps::state::FaultState,
    storms: crate::machine::traps::state::Storms,
    trigger: crate::machine::debug::state::Trigger,
    fs_seen: u8,
    fs_by: Option<u64>,
    irq: crate::machine::devices::irq::IrqState,
    platform: crate::platform::Platform,
    irq_defer: bool,
    end_at: Option<crate::machine::hart::EndAt>,
    watch_armed: Option<crate::machine::debug::state::Armed>,
    saves: std::collections::VecDeque<(u64, u64)>,
}

/// A checkpoint of a machine whose observer is `O`.
pub struct Checkpoint<O: Observer + Rewind> {
    /// Instructions executed when it was taken.
    pub executed: u64,
    /// The machine it was taken of (`Machine::serial`).
    serial: u64,
    cpu: unicorn_engine::Context,
    hart: HartSaved<O::BlockData>,
    obs: O::Saved,
    mem: MemImage,
    /// Heap bytes it holds besides its RAM pages (`MemImage::unshared_pages`
    /// tells those apart from another checkpoint's).
    pub bytes: usize,
}

impl<O: Observer + Rewind> Checkpoint<O> {
    pub fn mem(&self) -> &MemImage {
        &self.mem
    }

    /// The observer's state it holds.
    pub fn observer(&self) -> &O::Saved {
        &self.obs
    }
}

/// Every field of `Hart`, named, so that a field added later is a compile
/// error here until someone says whether a checkpoint holds it.
fn save_hart<O: Observer>(h: &Hart<O>) -> HartSaved<O::BlockData> {
    let Hart {
        obs: _, // the observer's own `Rewind`
        priv_,
        executed,
        pending,
        run:
            crate::machine::hart::RunControl {
                stepping: _, // reset by each run call
                stop,
                outcome: _,     // taken before a run call returns
                limit: _,       // reset by each run call
                until_kinds: _, // reset by each run call
                stop_addrs: _,  // the run call's, with their hooks
                skip_once: _,   // reset by each run call
                passed: _,      // reset by each run call
                exit,
                account: _, // configuration
                end_at,
            },
        clock:
            crate::machine::hart::ClockState {
                time_base: _,     // set once, when a saved state is resumed
                clock_reads: _,   // `verify`'s note on one straight run, never rewound
                counted_clock: _, // configuration (`verify`)
                cycle_offset,
                instret_offset,
            },
        traps:
            crate::machine::traps::state::TrapState {
                csr_shadow,
                mem_fault: _, // taken before a run call returns
                last_trap,
                trapped,
                status_extra,
                faults,
                storms,
            },
        code:
            crate::machine::code::state::CodeState {
                blocks: _,     // derived from code
                intercepts: _, // derived from code, with their hooks
                smc: _,        // derived from code, with its hooks
            },
        ext:
            crate::machine::ext::state::ExtState {
                vs,
                fp_checks: _,
                described: _, // disassembly of code, by pc and encoding
                vunit,
                lrsc,
                amo_traps: _,      // configuration
                xret_clears: _,    // configuration
                livelock_after: _, // configuration
                probes: _,         // configuration, with their hooks
                probe_resume,
                fs_seen,
                fs_by,
            },
        devices:
            crate::machine::devices::state::DeviceState {
                irq,
                platform,
                irq_stop: _,    // reset by each run call
                irq_request: _, // reset by each run call
                irq_hooks: _,   // hooks, kept with their ids
                irq_defer,
            },
        memory:
            crate::machine::memory::state::MemoryState {
                strict_segments: _, // configuration
            },
        debug:
            crate::machine::debug::state::DebugState {
                trigger,
                watch,
                saves,
            },
        dirty: _, // relative to the machine's last image (Machine::image)
    } = h;
    HartSaved {
        priv_: *priv_,
        vs: *vs,
        executed: *executed,
        pending: pending.as_ref().map(|p| (p.block.clone(), p.from, p.priv_)),
        stop: stop.clone(),
        csr_shadow: csr_shadow.clone(),
        exit: *exit,
        cycle_offset: *cycle_offset,
        instret_offset: *instret_offset,
        last_trap: *last_trap,
        trapped: *trapped,
        vunit: vunit.clone(),
        lrsc: lrsc.clone(),
        probe_resume: *probe_resume,
        status_extra: *status_extra,
        faults: faults.clone(),
        storms: storms.clone(),
        trigger: *trigger,
        fs_seen: *fs_seen,
        fs_by: *fs_by,
        irq: *irq,
        platform: platform.clone(),
        irq_defer: *irq_defer,
        end_at: *end_at,
        // The watch list is the user's; what a step armed is the run's.
        watch_armed: watch.armed,
        saves: saves.ring.clone(),
    }
}

fn restore_hart<O: Observer>(h: &mut Hart<O>, s: &HartSaved<O::BlockData>) {
    h.priv_ = s.priv_;
    h.ext.vs = s.vs;
    h.executed = s.executed;
    h.pending = s.pending.as_ref().map(|(block, from, priv_)| Pending {
        block: block.clone(),
        from: *from,
        boxed: *from,
        priv_: *priv_,
    });
    h.run.stop = s.stop.clone();
    h.run.outcome = None;
    h.traps.mem_fault = None;
    h.traps.csr_shadow.clone_from(&s.csr_shadow);
    h.run.exit = s.exit;
    h.clock.cycle_offset = s.cycle_offset;
    h.clock.instret_offset = s.instret_offset;
    h.traps.last_trap = s.last_trap;
    h.traps.trapped = s.trapped;
    h.ext.vunit.clone_from(&s.vunit);
    h.ext.lrsc.clone_from(&s.lrsc);
    h.ext.probe_resume = s.probe_resume;
    h.traps.status_extra = s.status_extra;
    h.traps.faults = s.faults.clone();
    h.traps.storms = s.storms.clone();
    h.debug.trigger = s.trigger;
    h.ext.fs_seen = s.fs_seen;
    h.ext.fs_by = s.fs_by;
    h.devices.irq = s.irq;
    h.devices.platform = s.platform.clone();
    h.devices.irq_defer = s.irq_defer;
    h.run.end_at = s.end_at;
    h.debug.watch.armed = s.watch_armed;
    h.debug.watch.step_at = None;
    h.debug.watch.resume_at = None;
    h.debug.saves.ring.clone_from(&s.saves);
}

fn hart_bytes<D>(s: &HartSaved<D>) -> usize {
    std::mem::size_of::<HartSaved<D>>()
        + s.csr_shadow.len() * 24
        + s.vunit.as_ref().map_or(0, |u| u.regs.len())
        + s.platform.uart.output.len()
        + s.saves.len() * 16
}

impl<O: Observer + Rewind + 'static> Machine<O> {
    /// Bytes of guest RAM (what a checkpoint compares).
    pub fn ram_bytes(&self) -> u64 {
        self.ram.iter().map(|(s, e)| e - s).sum()
    }

    /// Whether the last checkpoint read all of RAM: writes are not tracked,
    /// or the page tables could not be followed (`dirty.rs`).
    pub fn image_whole(&self) -> bool {
        self.image_whole
    }

    /// Notes the guest's writes to RAM from now on, so that checkpoints
    /// compare only the pages that may have changed (`dirty.rs`).
    pub fn track_writes(&mut self) -> Result<(), CheckpointError> {
        if self.uc.get_data().dirty.is_some() {
            return Ok(());
        }
        for &(start, end) in &self.ram {
            self.uc
                .add_mem_hook(
                    HookType::MEM_WRITE,
                    start,
                    end - 1,
                    |uc, _, addr, size, _| {
                        crate::machine::guard::shield(uc, true, |uc| {
                            if let Some(d) = uc.get_data_mut().dirty.as_mut() {
                                d.mark(addr, size as u64);
                            }
                            true
                        })
                    },
                )
                .map_err(|e| CheckpointError::Track(Uc(e)))?;
        }
        self.uc.get_data_mut().dirty =
            Some(crate::machine::checkpoint::dirty::Dirty::new(&self.ram));
        // Writes before now were not seen: the next image compares all.
        self.image = None;
        Ok(())
    }

    /// RAM now, sharing every page that equals the last image's.
    fn image_now(&mut self) -> MemImage {
        let suspects = crate::machine::checkpoint::track::suspects(&mut self.uc, &self.ram);
        self.image_whole = suspects.is_none() || self.image.is_none();
        crate::machine::checkpoint::memimage::capture(
            &self.uc,
            &self.ram,
            self.image.as_ref(),
            suspects,
        )
    }

    /// A checkpoint of the whole run state now. Take it between run calls
    /// (never from a hook).
    pub fn checkpoint(&mut self) -> Result<Checkpoint<O>, CheckpointError> {
        let mut cpu = self
            .uc
            .context_alloc()
            .map_err(|e| CheckpointError::Save(Uc(e)))?;
        self.uc
            .context_save(&mut cpu)
            .map_err(|e| CheckpointError::Save(Uc(e)))?;
        let mem = self.image_now();
        let hart = self.uc.get_data();
        let h = save_hart(hart);
        let obs = hart.obs.save();
        let pointers = mem.pointer_bytes(self.image.as_ref());
        let bytes = pointers + hart_bytes(&h) + O::saved_bytes(&obs);
        self.image = Some(mem.clone());
        Ok(Checkpoint {
            executed: h.executed,
            serial: self.serial,
            cpu,
            hart: h,
            obs,
            mem,
            bytes,
        })
    }

    /// Puts the machine back at `c`: after this, it is the machine a run
    /// from power-on to `c.executed` instructions gives.
    pub fn restore(&mut self, c: &Checkpoint<O>) -> Result<(), CheckpointError> {
        if c.serial != self.serial {
            return Err(CheckpointError::OtherMachine);
        }
        let satp_before = crate::machine::regs::read_csr(&mut self.uc, 0x180);
        // RAM: write back each page that differs from the checkpoint's, as
        // the machine's own writes go (code bytes a page changes drop their
        // decoded blocks and translations: smc::code_written).
        // With writes tracked: the pages written since the last image and
        // those where it and `c` are not the same page; else all of RAM.
        let suspects = crate::machine::checkpoint::track::suspects(&mut self.uc, &self.ram);
        let differ = crate::machine::checkpoint::memimage::differing(
            &self.uc,
            &self.ram,
            self.image.as_ref(),
            suspects,
            &c.mem,
        );
        for (ri, pages) in differ.into_iter().enumerate() {
            for i in pages {
                let Some((at, want)) = crate::machine::checkpoint::memimage::page_at(&c.mem, ri, i)
                else {
                    continue;
                };
                self.uc
                    .mem_write(at, want)
                    .map_err(|e| CheckpointError::Ram { at, err: Uc(e) })?;
                smc::code_written(&mut self.uc, at, want.len() as u64, None);
            }
        }
        self.uc
            .context_restore(&c.cpu)
            .map_err(|e| CheckpointError::Cpu(Uc(e)))?;
        // Translations of addresses (the TLB) are not part of the context.
        let _ = self.uc.ctl_flush_tlb();
        let satp_after = crate::machine::regs::read_csr(&mut self.uc, 0x180);
        crate::machine::checkpoint::track::reset(&mut self.uc);
        let hart = self.uc.get_data_mut();
        restore_hart(hart, &c.hart);
        hart.obs.restore(&c.obs);
        if satp_before != satp_after {
            // Another address space: decoded blocks are by virtual pc.
            hart.code.blocks.clear();
        }
        self.image = Some(c.mem.clone());
        Ok(())
    }
}

impl<O: Observer + 'static> Machine<O> {
    /// The guest's RAM now, region by region (for checks that two machines
    /// are in the same state).
    pub fn ram_contents(&self) -> Vec<(u64, Vec<u8>)> {
        self.ram
            .iter()
            .map(|&(s, e)| {
                (
                    s,
                    crate::machine::checkpoint::memimage::read_region(&self.uc, s, e),
                )
            })
            .collect()
    }
}
