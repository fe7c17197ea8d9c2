//! The end of a guest that never ends by itself: a real kernel's init loops
//! forever, so the run ends before the n-th execution of an address (the
//! loop's top), as if the guest had exited with status 0 there. The stop is
//! a code hook, so block mode and stepping end at the same instruction.

use unicorn_engine::Unicorn;

use crate::machine::error::LoadError;
use crate::machine::handle::Machine;
use crate::machine::handle::emu;
use crate::machine::hart::EndAt;
use crate::machine::hart::{Hart, Outcome};
use crate::machine::observe::Observer;
use crate::machine::retire::{finish, pending_index};
use crate::trace::Event;

impl<O: Observer + 'static> Machine<O> {
    /// Ends the run (exit status 0) right before the `hits`-th execution of
    /// `addr`.
    pub fn end_at(&mut self, addr: u64, hits: u64) -> Result<(), LoadError> {
        self.uc.get_data_mut().run.end_at = Some(EndAt {
            addr,
            hits,
            seen: 0,
            last_pos: None,
            trapped: 0,
        });
        self.uc
            .add_code_hook(addr, addr, |uc, pc, _| {
                crate::machine::guard::shield(uc, (), |uc| on_end_addr(uc, pc))
            })
            .map_err(emu)?;
        crate::machine::code::smc::drop_translations(&mut self.uc, addr, addr + 4);
        Ok(())
    }
}

impl<O: Observer + 'static> Machine<O> {
    /// Whether the run ended at `end_at`'s address (not by the guest).
    pub fn loop_ended(&self) -> bool {
        self.uc
            .get_data()
            .run
            .end_at
            .is_some_and(|e| e.seen >= e.hits)
    }
}

fn on_end_addr<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    let hart = uc.get_data_mut();
    let Some(mut e) = hart.run.end_at.filter(|e| e.addr == pc) else {
        return;
    };
    let idx = pending_index(hart, pc);
    let from = hart.pending.as_ref().map_or(0, |p| p.from);
    let pos = hart.executed + idx.map_or(0, |i| i.saturating_sub(from)) as u64;
    if e.last_pos == Some(pos) {
        return;
    }
    // The retry of an exception the instruction itself raised (a store's
    // page fault, whose handler maps the page and returns to it; priv spec
    // §4.3.1) is the same execution, as `snapshot` counts it
    // (qemu/take/step.rs). An ecall's own trap returns past it.
    let retry = e.last_pos.is_some()
        && hart.traps.trapped > e.trapped
        && hart.traps.last_trap.is_some_and(|(cause, epc)| {
            epc == pc && cause >> 63 == 0 && !(8..=11).contains(&cause)
        });
    e.last_pos = Some(pos);
    e.trapped = hart.traps.trapped;
    if retry {
        hart.run.end_at = Some(e);
        return;
    }
    e.seen += 1;
    hart.run.end_at = Some(e);
    if e.seen < e.hits {
        return;
    }
    finish(uc, idx.unwrap_or(0), Some(pc), false);
    let hart = uc.get_data_mut();
    hart.pending = None;
    hart.run.exit = Some((0, pc));
    hart.emit(Event::Exit { code: 0, pc });
    hart.run.outcome = Some(Outcome::Exited(0));
    let _ = uc.emu_stop();
}
