//! Running the machine: by blocks, one instruction at a time, to a stop
//! address, an event or a budget; and what happens when unicorn returns.

use unicorn_engine::unicorn_const::uc_error;

use crate::isa::Op;
use crate::isa::decode_range;
use crate::machine::code::smc;
use crate::machine::handle::Machine;
use crate::machine::handle::NEVER;
use crate::machine::handle::Until;
use crate::machine::hart::{Outcome, Pending};
use crate::machine::hooks;
use crate::machine::observe::Observer;
use crate::machine::traps::access;
use crate::machine::traps::cause;
use crate::machine::traps::trap;
use crate::trace::GuestFault;

impl<O: Observer + 'static> Machine<O> {
    fn sync_stop_addrs(&mut self, addrs: &[u64]) -> Result<(), GuestFault> {
        for &a in addrs {
            if self.stop_hooks.contains_key(&a) {
                continue;
            }
            let id = self
                .uc
                .add_code_hook(a, a, |uc, addr, _| {
                    crate::machine::guard::shield(uc, (), |uc| {
                        crate::machine::stops::on_stop_addr(uc, addr)
                    })
                })
                .map_err(|e| GuestFault::Emulator {
                    pc: a,
                    error: format!(
                        "cannot stop at {a:#x}: {}",
                        crate::machine::error::uc_text(e)
                    ),
                })?;
            self.stop_hooks.insert(a, id);
            // Code already translated does not call hooks added after it.
            smc::drop_translations(&mut self.uc, a, a + 4);
        }
        let hart = self.uc.get_data_mut();
        hart.run.stop_addrs = addrs.iter().copied().collect();
        Ok(())
    }

    /// Runs until the guest ends, faults, or reaches something in `until`.
    pub fn run(&mut self, until: &Until) -> Outcome {
        self.go(until, false)
    }

    /// Executes one instruction (or delivers the trap it raises).
    pub fn step(&mut self) -> Outcome {
        self.go(&Until::default(), true)
    }

    pub(super) fn go(&mut self, until: &Until, single: bool) -> Outcome {
        if let Some((code, _)) = self.uc.get_data().run.exit {
            return Outcome::Exited(code);
        }
        if let Err(f) = self.sync_stop_addrs(&until.addrs) {
            return Outcome::Fault(f);
        }
        // unicorn counts instructions (`count = 1`) with a hook compiled into
        // each translated block; blocks translated for a free run lack it and
        // would run whole. Switching modes therefore drops the translations.
        if self.tb_single.is_some_and(|s| s != single) {
            let _ = self.uc.ctl_flush_tb();
        }
        self.tb_single = Some(single);
        let start_pc = self.pc();
        {
            let hart = self.uc.get_data_mut();
            hart.run.limit = until
                .max_insns
                .map_or(u64::MAX, |b| hart.executed.saturating_add(b));
            hart.run.until_kinds = until.kinds.clone();
            hart.run.skip_once = hart.run.stop_addrs.contains(&start_pc).then_some(start_pc);
            hart.debug.watch.resume_at = hart.run.skip_once;
            hart.run.passed = None;
            hart.run.outcome = None;
            hart.run.stepping = single;
            hart.devices.irq_stop = None;
            hart.devices.irq_request = None;
        }
        loop {
            if crate::machine::sigint::requested() {
                self.uc.get_data_mut().run.stepping = false;
                return Outcome::Interrupted;
            }
            let pc = self.pc();
            // The debug trigger: hooks in block mode, a check before each
            // step (trigger.rs).
            self.sync_trigger_hook();
            // A watched access found by a block runs as a step (watch.rs).
            if !single && self.uc.get_data_mut().debug.watch.step_at.take() == Some(pc) {
                match self.watched_step(pc) {
                    Some(o) => return o,
                    None => continue,
                }
            }
            if single {
                // An interrupt due before this instruction is a step of its
                // own (interrupt.rs).
                if let Some(o) = crate::machine::devices::interrupt::before_step(&mut self.uc) {
                    self.uc.get_data_mut().run.stepping = false;
                    return o;
                }
                match self.trigger_gate(pc) {
                    crate::machine::debug::trigger::Gate::Run => {}
                    crate::machine::debug::trigger::Gate::Stop(o) => return o,
                }
            }
            crate::machine::code::hookpages::reap(&mut self.uc);
            let r = self.uc.emu_start(pc, NEVER, 0, if single { 1 } else { 0 });
            let now = self.pc();
            // A memory fault is settled by its delivery, which knows the
            // faulting instruction (unicorn's pc is its block's start).
            if r.is_ok() || self.uc.get_data().traps.mem_fault.is_none() {
                self.settle(now, single && r.is_ok());
            }
            let hart = self.uc.get_data_mut();
            if let Some(o) = hart.run.outcome.take() {
                hart.run.stepping = false;
                return o;
            }
            match r {
                Ok(()) => {
                    if let Some(s) = hart.run.stop.take() {
                        hart.run.stepping = false;
                        return s;
                    }
                    if single {
                        hart.run.stepping = false;
                        return crate::machine::debug::watch::after_step(&mut self.uc);
                    }
                    if let Some(o) = crate::machine::devices::interrupt::resume(&mut self.uc) {
                        self.uc.get_data_mut().run.stepping = false;
                        return o;
                    }
                    // unicorn returned without a reason of ours: go on.
                }
                Err(uc_error::INSN_INVALID) | Err(uc_error::EXCEPTION) => {
                    if let Some(o) = self.on_ebreak(now, single) {
                        self.uc.get_data_mut().run.stepping = false;
                        return o;
                    }
                }
                Err(e) => {
                    let hart = self.uc.get_data_mut();
                    let f = match hart.traps.mem_fault.take() {
                        Some((access, addr, fpc)) => {
                            let prot = matches!(
                                e,
                                uc_error::WRITE_PROT | uc_error::READ_PROT | uc_error::FETCH_PROT
                            );
                            match access::deliver(&mut self.uc, access, addr, fpc, prot) {
                                Ok(()) => {
                                    let hart = self.uc.get_data_mut();
                                    if let Some(o) = hart.run.outcome.take() {
                                        hart.run.stepping = false;
                                        return o;
                                    }
                                    if single {
                                        hart.run.stepping = false;
                                        return Outcome::Stepped;
                                    }
                                    continue;
                                }
                                Err(f) => f,
                            }
                        }
                        None => GuestFault::Emulator {
                            pc: now,
                            error: crate::machine::error::uc_text(e).to_string(),
                        },
                    };
                    self.uc.get_data_mut().run.stepping = false;
                    crate::machine::retire::fault(&mut self.uc, f.clone());
                    self.uc.get_data_mut().run.outcome = None;
                    return Outcome::Fault(f);
                }
            }
        }
    }

    /// Step mode: the pending "block" is the one instruction at `pc`.
    pub(super) fn prepare_step(&mut self, pc: u64) {
        let len = smc::insn_len_at(&mut self.uc, pc);
        self.set_pending(pc, u32::from(len));
    }

    /// Makes the `len` bytes at `pc` the block being executed.
    fn set_pending(&mut self, pc: u64, len: u32) {
        let block = hooks::block_at(&mut self.uc, pc, len);
        crate::machine::code::register::check_entry(&mut self.uc, &block);
        smc::retranslate_fresh(&mut self.uc);
        let hart = self.uc.get_data_mut();
        let priv_ = hart.priv_;
        hart.pending = Some(Pending {
            block,
            from: 0,
            boxed: 0,
            priv_,
        });
    }

    /// After unicorn returns: report what of the pending block executed.
    /// `stepped`: a single step completed, so its instruction ran even if
    /// it jumped to itself (`now` is then its own address).
    fn settle(&mut self, now: u64, stepped: bool) {
        let hart = self.uc.get_data();
        let Some(p) = hart.pending.as_ref() else {
            return;
        };
        if stepped {
            crate::machine::retire::finish(&mut self.uc, usize::MAX, Some(now), false);
            return;
        }
        match p.block.index_of(now) {
            Some(i) => crate::machine::retire::finish(&mut self.uc, i, Some(now), false),
            None => crate::machine::retire::finish(&mut self.uc, usize::MAX, Some(now), false),
        }
    }

    /// unicorn stops at `ebreak` instead of raising it. Either stop (a user
    /// breakpoint) or deliver the guest's breakpoint trap (cause 3).
    fn on_ebreak(&mut self, pc: u64, single: bool) -> Option<Outcome> {
        let bytes = smc::read_code(&mut self.uc, pc, 4);
        let d = decode_range(pc, &bytes).into_iter().next();
        let is_ebreak = matches!(d.and_then(|d| d.insn).map(|i| i.op), Some(Op::Ebreak));
        if !is_ebreak {
            let raw = d.map_or(0, |d| d.raw);
            let f = GuestFault::Unsupported {
                pc,
                encoding: raw,
                why: "the emulator rejected it".into(),
                place: self.uc.get_data().traps.faults.describe(pc),
            };
            crate::machine::retire::fault(&mut self.uc, f.clone());
            self.uc.get_data_mut().run.outcome = None;
            return Some(Outcome::Fault(f));
        }
        if self.ebreak_stops {
            let hart = self.uc.get_data_mut();
            hart.emit(crate::trace::Event::Breakpoint { pc });
            return Some(Outcome::Breakpoint(pc));
        }
        // The ebreak executed (as a trapping instruction): account it.
        self.set_pending(pc, d.map_or(4, |d| u32::from(d.len)));
        crate::machine::retire::finish(&mut self.uc, 1, None, false);
        trap::raise(&mut self.uc, cause::CAUSE_BREAKPOINT, pc, pc);
        if let Some(o) = self.uc.get_data_mut().run.outcome.take() {
            return Some(o); // a trap loop
        }
        if single {
            return Some(Outcome::Stepped);
        }
        let hart = self.uc.get_data_mut();
        hart.run.stop.take()
    }
}
