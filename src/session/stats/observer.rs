//! The observer side of `Stats`: per-block tables, retired ranges, the
//! clock look-ahead, idling and events (machine::Observer).

use crate::cost::{At, Cat};
use crate::isa::DecodedInsn;
use crate::isa::Op;
use crate::machine::{Observer, Retire};
use crate::session::clock;
use crate::trace::{Event, EventKind, PredKind};

use super::*;

impl Observer for Stats {
    type BlockData = BlockInfo;

    fn build(&mut self, insns: &[DecodedInsn]) -> BlockInfo {
        let m = self.markers;
        let mut marks = Vec::new();
        for (i, d) in insns.iter().enumerate() {
            let mut b = 0;
            if m.start == Some(d.pc) {
                b |= M_START;
            }
            if m.end == Some(d.pc) {
                b |= M_END;
            }
            if m.iteration == Some(d.pc) {
                b |= M_ITER;
            }
            if b != 0 {
                marks.push((i, b));
            }
        }
        let func = self.functions.ids(&self.program, insns);
        let slots = insns
            .iter()
            .zip(func)
            .map(|(d, func)| {
                let loc = self.program.loc(d.pc);
                let next = self.line_locs.len() as u32;
                // Code without lines counts by instruction instead.
                let line = match loc {
                    Some(_) => *self.line_ids.entry(loc).or_insert(next),
                    None => *self.pc_line_ids.entry(d.pc).or_insert(next),
                };
                if line == next {
                    self.line_locs.push(loc);
                    self.line_pcs.push(loc.is_none().then(|| {
                        let text = d.insn.map_or_else(
                            || format!(".insn {:#x}", d.raw),
                            |i| crate::vector::disasm(&i, d.pc),
                        );
                        (d.pc, text)
                    }));
                    self.lines.push(0);
                }
                Slot {
                    phase: self.map.phase_of(d.pc),
                    line,
                    func,
                    cost: self.model.as_ref().map(|m| m.cost.of(d)),
                }
            })
            .collect();
        BlockInfo {
            slots,
            marks,
            costed: self.model.is_some(),
            stream: self.stream.block(insns.iter().map(|d| d.pc)),
            tape: self.tape.as_mut().map_or(0, |t| t.block(insns)),
        }
    }

    fn retired(&mut self, r: &Retire<'_, BlockInfo>) -> u32 {
        let info = r.data;
        self.stream.push(info.stream, r.at, r.from, r.to);
        self.last_priv = r.priv_;
        let fallback = PhaseMap::default_for(r.priv_);
        // Control transfers first: each learns where it went from the next
        // instruction, or from `next` for the last one.
        let mut misp: Vec<(usize, PredKind)> = Vec::new();
        let mut found = Vec::new();
        if let Some(m) = self.model.as_mut() {
            m.pred.ras.set_mode(r.priv_ as u8);
            for i in r.from..r.to {
                let d = &r.insns[i];
                if !d.insn.is_some_and(|x| x.is_control()) {
                    continue;
                }
                let next = if i + 1 < r.to {
                    Some(r.insns[i + 1].pc)
                } else {
                    r.next
                };
                if let Some(mp) = next.and_then(|n| m.pred.resolve(d, n)) {
                    misp.push((i, mp.kind));
                    found.push(mp);
                }
            }
        }
        let mut marks = info
            .marks
            .iter()
            .filter(|(i, _)| *i >= r.from && *i < r.to)
            .peekable();
        let mut mp = misp.iter().peekable();
        // The innermost frame's phase changes only at a jal/jalr below.
        let mut frame = self.stack.phase();
        for i in r.from..r.to {
            while let Some((_, bits)) = marks.next_if(|(j, _)| *j == i) {
                self.executed = r.at + (i - r.from) as u64;
                if let Some(t) = self.tape.as_mut() {
                    t.close(Some(r.insns[i].pc));
                }
                self.mark(*bits);
            }
            // The pc's own phase symbol, else the innermost frame's
            // (session::callstack), else the privilege default.
            let slot = &info.slots[i];
            let p = slot.phase.or(frame).unwrap_or(fallback) as usize;
            if let Some(t) = self.tape.as_mut() {
                t.insn(info.tape, i, p as u8, r.priv_ as u8);
            }
            self.now.phase[p] += 1;
            let func = slot.func;
            self.functions.retire(func);
            let d = &r.insns[i];
            if let Some(rec) = self.path.as_mut() {
                rec.step(d);
            }
            // Where execution went after it (None: it trapped).
            let next = if i + 1 < r.to {
                Some(r.insns[i + 1].pc)
            } else {
                r.next
            };
            if d.insn.is_some_and(|x| matches!(x.op, Op::Jal | Op::Jalr)) {
                // A jump that did not complete (it trapped) linked nothing.
                if let Some(n) = next {
                    let map = &self.map;
                    self.stack.transfer(d, n, &|pc| map.phase_of(pc));
                    self.now.mismatched_returns = self.stack.mismatched;
                    frame = self.stack.phase();
                }
            }
            let (Some(m), Some(t)) = (self.model.as_mut(), slot.cost.as_ref()) else {
                continue;
            };
            let kind = mp.next_if(|(j, _)| *j == i).map(|(_, k)| *k);
            let completed = next.is_some();
            let taken = next.is_some_and(|n| n != d.pc + u64::from(d.len));
            let now = &mut self.now;
            let path = &mut self.path;
            let mut spent = 0;
            let at = At {
                i,
                completed,
                taken,
                misp: kind,
            };
            let waited = clock::charge_one(
                &m.cost,
                &mut m.pipe,
                t,
                at,
                &mut m.vec_pending,
                |cat, v, event| {
                    if event {
                        now.ledger.add(cat, v);
                    } else {
                        now.ledger.add_cycles(cat, v);
                    }
                    spent += v;
                    if let Some(rec) = path.as_mut() {
                        rec.charge(cat, v, event);
                    }
                    if event && cat == Cat::RasMispredicts && p == USER as usize {
                        now.user_ras_mispredicts += 1;
                    }
                },
            );
            if waited > 0 {
                now.ledger.add_cycles(Cat::VectorUnit, waited);
                if let Some(rec) = path.as_mut() {
                    rec.charge(Cat::VectorUnit, waited, false);
                }
            }
            // Each charge's cycles, added once: to the phase, the line and
            // the function.
            now.cycles[p] += spent + waited;
            self.lines[slot.line as usize] += spent + waited;
            self.functions.charge(func, spent + waited);
        }
        if let Some(t) = self.tape.as_mut() {
            t.close(r.next);
        }
        let produced = if found.is_empty() {
            0
        } else {
            1 << EventKind::Mispredict as u32
        };
        for mp in found {
            if let Some(rec) = self.path.as_mut() {
                rec.mispredict(mp.pc, mp.predicted, mp.actual);
            }
            let ev = Event::Mispredict {
                what: mp.kind,
                pc: mp.pc,
                predicted: mp.predicted,
                actual: mp.actual,
            };
            self.event(r.at + (r.to - r.from) as u64, &ev);
        }
        produced
    }

    fn cycles(&self) -> Option<u64> {
        self.model
            .as_ref()
            .map(|_| self.now.cycles.iter().sum::<u64>() / crate::cost::MILLI)
    }

    /// The platform timer: modelled cycles at the core's clock, in ticks of
    /// its `timebase_hz`.
    fn time(&self) -> Option<u64> {
        self.time_ahead(0)
    }

    /// The same walk as `retired` over instructions that all complete and
    /// predict right (load-use stalls and status-write waits included), so
    /// the cost up to any instruction is what accounting will charge.
    fn costs_ahead(
        &self,
        info: &BlockInfo,
        insns: &[DecodedInsn],
        from: usize,
        out: &mut Vec<u64>,
    ) {
        if let Some(m) = self.model.as_ref() {
            costs_ahead(m, info, insns, from, out);
        } else {
            out.clear();
        }
    }

    /// The platform timer after `milli` more cycles: modelled cycles at the
    /// core's clock, in ticks of its `timebase_hz`.
    fn time_ahead(&self, milli: u64) -> Option<u64> {
        let m = self.model.as_ref()?;
        Some(clock::ticks(
            &m.profile,
            self.now.cycles.iter().sum::<u64>() + milli,
        ))
    }

    /// Idle cycles up to the first milli-cycle at which the timer reads
    /// `target`, charged to the `wfi`'s phase and line.
    fn idle(&mut self, _pc: u64, target: u64) -> bool {
        let Some(m) = self.model.as_mut() else {
            return false;
        };
        let sum: u64 = self.now.cycles.iter().sum();
        let need = clock::idle_milli(&m.profile, sum, target);
        m.idle_for(need);
        // Time, not work: its own phase and category, which the
        // per-iteration figures leave out (estimate.rs), and no function's,
        // line's or path step's cycles.
        self.now.cycles[IDLE as usize] += need;
        self.now.ledger.add(Cat::Idle, need);
        if let Some(t) = self.tape.as_mut() {
            t.event(crate::session::tape::Entry::Idle { target });
        }
        true
    }

    fn event(&mut self, at: u64, ev: &Event) {
        self.log.push(at, ev);
        self.traps.note(self.log.total() - 1, at, ev);
        let kind = ev.kind();
        if kind == EventKind::Retired {
            return;
        }
        // A counted window's run ends right before the loop top after the
        // last timed iteration (machine::Machine::end_at): the window closes
        // there, before the end is counted.
        if kind == EventKind::Exit
            && let Some((_, timed)) = self.markers.count
            && self.window_start.is_some()
            && self.window_end.is_none()
            && self.iterations == timed
        {
            self.close_window();
        }
        *self.now.events.entry(kind.name()).or_default() += 1;
        if let Event::Vector { pc, .. } = ev {
            let p = self.phase_at(*pc, self.last_priv);
            self.now.vector[p as usize] += 1;
        }
        if let Event::Vector { pc, class, .. } = ev
            && let Some(t) = self.tape.as_mut()
        {
            let phase = self.map.phase_of(*pc).or(self.stack.phase());
            let phase = phase.unwrap_or(PhaseMap::default_for(self.last_priv));
            t.event(crate::session::tape::Entry::Vector {
                class: *class,
                phase,
            });
        }
        if let Event::Vector { pc, class, .. } = ev
            && let Some(m) = self.model.as_mut()
        {
            let v = m.vector_charge(class);
            let p = self.phase_at(*pc, self.last_priv) as usize;
            self.now.cycles[p] += v;
            self.now.ledger.add(Cat::VectorUnit, v);
            if let Some(rec) = self.path.as_mut() {
                rec.charge_at(*pc, Cat::VectorUnit, v, true);
            }
            self.charge_pc(*pc, v);
            if let Some(id) = self
                .program
                .loc(*pc)
                .and_then(|l| self.line_ids.get(&Some(l)))
            {
                self.lines[*id as usize] += v;
            }
        }
        if self.model.is_none()
            && let Some(rec) = self.path.as_mut()
        {
            match ev {
                Event::TrapEnter { handler, .. } => {
                    rec.charge_at(*handler, Cat::TrapEntries, 0, true)
                }
                Event::TrapReturn { pc, .. } => rec.charge_at(*pc, Cat::TrapReturns, 0, true),
                Event::Vector { pc, .. } => rec.charge_at(*pc, Cat::VectorUnit, 0, true),
                _ => {}
            }
        }
        match ev {
            Event::TrapEnter {
                cause,
                from,
                to,
                epc,
                handler,
                ..
            } => self.stack.trap(*cause, *epc, *from, *to, *handler),
            Event::TrapReturn { .. } => {
                if let Some(t) = self.tape.as_mut() {
                    t.event(crate::session::tape::Entry::Xret);
                }
                self.stack.xret();
                if let Some(m) = self.model.as_mut()
                    && m.profile.core.trap_flushes_ras.value
                {
                    m.pred.flush_ras();
                }
            }
            _ => {}
        }
        if let Event::TrapEnter { handler, to, .. } = ev {
            if let Event::TrapEnter { cause, .. } = ev
                && cause >> 63 == 1
            {
                let key = crate::machine::irq::key(cause & !(1 << 63));
                *self.interrupts.entry(key).or_default() += 1;
            }
            self.now.traps += 1;
            if let Some(t) = self.tape.as_mut() {
                let phase = self.map.phase_of(*handler).or(self.stack.phase());
                let phase = phase.unwrap_or(PhaseMap::default_for(*to));
                t.event(crate::session::tape::Entry::Trap { phase });
            }
            if let Some(m) = self.model.as_mut() {
                // The pipeline is flushed: no stall carries into the handler.
                let v = m.cost.trap(&mut m.pipe);
                if m.profile.core.trap_flushes_ras.value {
                    m.pred.flush_ras();
                }
                let p = self.phase_at(*handler, *to) as usize;
                self.now.cycles[p] += v;
                self.now.ledger.add(Cat::TrapEntries, v);
                if let Some(rec) = self.path.as_mut() {
                    rec.charge_at(*handler, Cat::TrapEntries, v, true);
                }
                self.charge_pc(*handler, v);
            }
        }
    }
}

/// The same walk as accounting over instructions that all complete, fall
/// through and predict right, on a copy of the pipeline: `out[k]` is the
/// cost of the instructions `from..k`.
fn costs_ahead(
    m: &CoreModel,
    info: &BlockInfo,
    insns: &[DecodedInsn],
    from: usize,
    out: &mut Vec<u64>,
) {
    out.clear();
    if !info.costed {
        return;
    }
    out.push(0);
    let (mut pipe, mut pending, mut sum) = (m.pipe.clone(), m.vec_pending, 0u64);
    for i in from..insns.len() {
        let at = At {
            i,
            completed: true,
            taken: false,
            misp: None,
        };
        let mut spent = 0;
        let Some(s) = info.slots[i].cost.as_ref() else {
            continue;
        };
        let waited = clock::charge_one(&m.cost, &mut pipe, s, at, &mut pending, |_, v, _| {
            spent += v
        });
        sum += spent + waited;
        out.push(sum);
    }
}
