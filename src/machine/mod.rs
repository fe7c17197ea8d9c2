//! The emulated hart: owns the unicorn instance, loads the guest, delivers
//! traps, runs the instructions unicorn cannot, and reports what executed to an
//! observer. Knows nothing of cost, prediction or the UI.

// The hart's features, each a sub-room with its part of the hart's state
// (see each one's doc comment); the run loop, the hooks and the hart itself
// sit at this level.
pub mod checkpoint;
mod code;
mod debug;
mod devices;
mod end;
mod error;
mod ext;
pub mod guard;
mod handle;
mod hart;
mod hooks;
mod memory;
mod observe;
pub mod regs;
mod retire;
mod run;
pub mod sigint;
mod stops;
mod traps;

pub use devices::irq;
pub use ext::fstate;
pub use traps::storm;

use checkpoint::resume;
use code::block;
use debug::frames;
use devices::mmio;
use ext::vec;
use traps::access;

pub use crate::vector::disasm;

use std::collections::HashMap;
use std::rc::Rc;

use unicorn_engine::unicorn_const::{Arch, HookType, Mode};
use unicorn_engine::{RegisterRISCV as R, Unicorn};

pub use crate::isa::{DecodedInsn, decode_range};
pub use crate::program::{LookupError, Program, Segment, SrcLoc, Symbol};
pub use crate::program::{Member, SourceName, source_names};
pub use block::Block;
pub use debug::state::{Watch, WatchAccess, WatchHit};
pub use error::{CheckpointError, Header, LoadError, ResumeError, Uc, uc_text};
pub use frames::{MINIKERNEL_PT_REGS, SAVE_FUNCS, is_save};
use handle::emu;
pub use handle::{Machine, MachineConfig, Until};
pub use hart::{Hart, Outcome};
pub use observe::{NoObserver, Observer, Retire};
pub use resume::{ResumeState, VectorState, restorable};

use crate::trace::Priv;

impl<O: Observer + 'static> Machine<O> {
    pub fn new(program: Rc<Program>, obs: O) -> Result<Machine<O>, LoadError> {
        Machine::build(program, obs, true, MachineConfig::default())
    }

    pub fn with_config(
        program: Rc<Program>,
        obs: O,
        cfg: MachineConfig,
    ) -> Result<Machine<O>, LoadError> {
        Machine::build(program, obs, true, cfg)
    }

    /// unicorn with only what the guest needs to run at all (trap delivery,
    /// `tohost`): no accounting, no intercepted instructions. For measuring
    /// what the instrumentation costs (`trapscope bench`).
    pub fn new_raw(program: Rc<Program>, obs: O) -> Result<Machine<O>, LoadError> {
        Machine::build(program, obs, false, MachineConfig::default())
    }

    fn build(
        program: Rc<Program>,
        obs: O,
        account: bool,
        cfg: MachineConfig,
    ) -> Result<Machine<O>, LoadError> {
        let mut hart = Hart::new(obs);
        hart.run.account = account;
        hart.memory.strict_segments = cfg.strict_segments;
        hart.traps.faults.names = Some(program.clone());
        hart.traps.faults.tohost = program.symbol("tohost").map(|s| s.addr);
        let mut uc = Unicorn::new_with_data(Arch::RISCV, Mode::RISCV64, hart).map_err(emu)?;
        // Runs end by emu_stop, never at an address. With exits on and none
        // set, uc_emu_start ignores its `until`; without them it invalidates
        // the translation at `until` on every return (a page-table walk of
        // NEVER each time), which a guest that traps by stopping the run
        // (ebreak, an access fault) paid on every trap.
        uc.ctl_exits_enable().map_err(emu)?;
        mmio::check_segments(&program)?;
        let ram = memory::map_segments(&mut uc, &program, &cfg)?;
        mmio::map(&mut uc)?;
        let mut m = Machine {
            uc,
            program,
            stop_hooks: HashMap::new(),
            ebreak_stops: false,
            tb_single: None,
            trigger_hook: None,
            ram,
            image: None,
            image_whole: true,
            serial: checkpoint::next_serial(),
        };
        m.install_hooks(account)?;
        if account {
            m.install_frame_hooks()?;
        }
        m.uc.reg_write(R::PC, m.program.entry).map_err(emu)?;
        regs::set_priv(&mut m.uc, Priv::M);
        // Reset values, so the first write of each CSR reports its old value.
        for csr in regs::KNOWN_CSRS {
            if let Some(v) = m.csr(csr) {
                m.uc.get_data_mut().traps.csr_shadow.insert(csr, v);
            }
        }
        fstate::sync(&mut m.uc);
        Ok(m)
    }

    fn install_hooks(&mut self, account: bool) -> Result<(), LoadError> {
        let uc = &mut self.uc;
        // A code hook that never fires, so that unicorn never holds exactly
        // one. With one code hook, unicorn 2.1 translates each hooked
        // instruction into a direct call to that hook's closure, and when the
        // hook is removed it drops only the blocks that *begin* inside the
        // hook's range: a block that begins before a removed exact hook
        // (hookpages.rs retires them, trigger.rs and interrupt.rs remove
        // theirs) kept calling the freed closure, and the process died of
        // SIGSEGV. With two or more, every hooked instruction goes through
        // unicorn's dispatcher, which skips removed hooks. No instruction
        // starts at u64::MAX: it is odd, and IALIGN is at least 16 bits
        // (unprivileged spec §1.5).
        uc.add_code_hook(u64::MAX, u64::MAX, |_, _, _| {})
            .map_err(emu)?;
        if account {
            uc.add_block_hook(1, 0, |uc, a, s| {
                guard::shield(uc, (), |uc| hooks::on_block(uc, a, s))
            })
            .map_err(emu)?;
        }
        uc.add_intr_hook(|uc, n| guard::shield(uc, (), |uc| hooks::on_exception(uc, n)))
            .map_err(emu)?;
        uc.add_mem_hook(
            HookType::MEM_UNMAPPED | HookType::MEM_PROT,
            1,
            0,
            |uc, ty, addr, _, _| guard::shield(uc, false, |uc| access::on_mem_fault(uc, ty, addr)),
        )
        .map_err(emu)?;
        if let Some(t) = self.program.symbol("tohost") {
            uc.add_mem_hook(
                HookType::MEM_WRITE,
                t.addr,
                t.addr.saturating_add(7),
                |uc, _, a, _, v| {
                    guard::shield(uc, true, |uc| {
                        hooks::on_tohost(uc, a, v);
                        true
                    })
                },
            )
            .map_err(emu)?;
        }
        if !account || self.program.dynamic_code {
            // A snapshot's code is found block by block (hooks::block_at).
            return Ok(());
        }
        // docs/decisions.md D4: hook exactly the instructions we run
        // ourselves. They are found when the block holding them is first
        // decoded (hooks::block_at, register::register_block), so only code that
        // runs carries hooks: unicorn walks every code hook each time a
        // hooked instruction runs, and firmware paths a scenario never takes
        // (the AMO emulation's hundreds of mstatus accesses) would slow every
        // other one down.
        // Code is what may run: executable segments, and under the platform's
        // rules (RAM is RWX) also those that claim neither X nor W (some
        // linker scripts emit flagless PT_LOADs holding text).
        let strict = uc.get_data().memory.strict_segments;
        let is_code =
            |s: &&crate::program::Segment| s.memsz > 0 && (s.exec || (!strict && !s.write));
        // Code the guest writes (docs/decisions.md D11).
        for seg in self.program.segments.iter().filter(is_code) {
            let start = seg.vaddr & !0xfff;
            let end = (seg.vaddr + seg.memsz).div_ceil(0x1000) * 0x1000 - 1;
            crate::machine::code::register::watch(uc, start, end).map_err(emu)?;
        }
        Ok(())
    }

    /// Gives the hart a V unit of `vlen` bits (0: none; vector instructions
    /// then stop the run as unsupported).
    pub fn enable_vector(&mut self, vlen: u32) {
        self.uc.get_data_mut().ext.vunit = vec::unit(vlen);
    }

    pub fn vunit(&self) -> Option<&crate::vector::VUnit> {
        self.uc.get_data().ext.vunit.as_ref()
    }

    /// sstatus.VS: 0 Off, 1 Initial, 2 Clean, 3 Dirty.
    pub fn vs(&self) -> u8 {
        self.uc.get_data().ext.vs
    }

    pub fn pc(&self) -> u64 {
        self.uc.reg_read(R::PC).unwrap_or(0)
    }

    pub fn priv_(&self) -> Priv {
        self.uc.get_data().priv_
    }

    pub fn gpr(&self, i: u8) -> u64 {
        regs::read_gpr(&self.uc, i)
    }

    pub fn gprs(&self) -> [u64; 32] {
        std::array::from_fn(|i| regs::read_gpr(&self.uc, i as u8))
    }

    /// A CSR as the guest would read it (with the VS shadow merged into
    /// sstatus/mstatus).
    pub fn csr(&mut self, csr: u16) -> Option<u64> {
        if crate::machine::debug::state::is_trigger_csr(csr) {
            return crate::machine::debug::state::peek(&self.uc.get_data().debug.trigger, csr);
        }
        if irq::is_shadowed(csr) {
            let hart = self.uc.get_data();
            return Some(
                hart.devices
                    .irq
                    .read(csr, hart.devices.platform.lines(hart.time_value())),
            );
        }
        let raw = regs::read_csr(&mut self.uc, csr)?;
        if csr == crate::machine::traps::csr_rules::SSTATUS
            || csr == crate::machine::traps::csr_rules::MSTATUS
        {
            let hart = self.uc.get_data();
            return Some(crate::machine::traps::csr_rules::status_view(
                csr,
                raw,
                hart.ext.vs,
                hart.traps.status_extra,
            ));
        }
        Some(raw)
    }

    /// Records that the run's instruction budget ended it (the machine's own
    /// budget stops are also used to step precisely, so the caller decides).
    pub fn note_budget_exhausted(&mut self) {
        let hart = self.uc.get_data_mut();
        let executed = hart.executed;
        hart.emit(crate::trace::Event::BudgetExhausted { executed });
    }

    /// The intercept code hooks unicorn holds (hookpages.rs: at most a few
    /// a page, however many instructions are intercepted).
    pub fn intercept_hooks(&self) -> usize {
        self.uc.get_data().code.smc.pages.live()
    }

    /// Runs on QEMU's instruction-counted clock from here (`verify`): the
    /// clock read `base` nanoseconds in QEMU at this point (its `minstret`
    /// under `-icount shift=0`), and `mtime` ticks every `ns_per_tick`.
    pub fn count_time_as_qemu(&mut self, base: u64, ns_per_tick: u64) {
        let hart = self.uc.get_data_mut();
        hart.clock.counted_clock = Some(hart::CountedClock {
            base,
            from: hart.executed,
            ns_per_tick,
        });
    }

    /// How many times the guest read the clock (cycle, time, instret, the
    /// CLINT's mtime) so far, and where it first did.
    pub fn clock_reads(&self) -> (u64, Option<u64>) {
        self.uc.get_data().clock.clock_reads
    }

    /// Instructions executed so far (trapping ones included).
    pub fn executed(&self) -> u64 {
        self.uc.get_data().executed
    }

    pub fn exit_code(&self) -> Option<u64> {
        self.uc.get_data().run.exit.map(|(c, _)| c)
    }

    /// The last trap taken: (cause, epc).
    pub fn last_trap(&self) -> Option<(u64, u64)> {
        self.uc.get_data().traps.last_trap
    }

    /// What the guest sent to the UART.
    pub fn uart_output(&self) -> &[u8] {
        &self.uc.get_data().devices.platform.uart.output
    }

    /// The platform devices (CLINT, UART, PLIC, test device).
    pub fn platform(&self) -> &crate::platform::Platform {
        &self.uc.get_data().devices.platform
    }

    /// Whether an interrupt could still be taken without the guest writing
    /// a CSR or a device: none can break a loop that does neither when
    /// this is false (the "spins forever" check).
    pub fn interrupt_possible(&mut self) -> bool {
        crate::machine::devices::pending::interrupt_possible(&mut self.uc)
    }

    /// mip as the guest would read it now.
    pub fn mip(&self) -> u64 {
        crate::machine::devices::pending::mip_now(self.uc.get_data())
    }

    pub fn observer(&self) -> &O {
        &self.uc.get_data().obs
    }

    pub fn observer_mut(&mut self) -> &mut O {
        &mut self.uc.get_data_mut().obs
    }
}
