//! Tab: the same place in another variant, which may be another build of
//! the guest: in the measured loop, the same iteration and the same arrival
//! at the same function and offset since it began; elsewhere (or where
//! that code is not run as often) the same trap event and offset.

use std::rc::Rc;

use super::{RUN_BUDGET, long};
use crate::machine::{Outcome, Until};
use crate::session;
use crate::trace::EventKind;
use crate::tui::state::SourceFiles;
use crate::tui::state::{AppState, Live};

impl AppState {
    /// Shows another variant at the same place.
    pub fn switch_variant(&mut self, to: usize) {
        // Tabs with nothing moved in between are one round: it began where
        // the first of them left. Back to that variant is back there,
        // exactly (mapping need not be symmetric between two paths: code
        // only some variants run, a loop's end).
        let chain = self
            .tab_back
            .take()
            .filter(|(_, landed)| *landed == (self.live.variant, self.live.executed()));
        if let Some((origin, _)) = chain
            && origin.0 == to
            && self.return_to(to, origin.1)
        {
            return;
        }
        let (from_variant, from_at) = chain
            .map(|(origin, _)| origin)
            .unwrap_or((self.live.variant, self.live.executed()));
        let st = self.live.stats();
        let k = st.iteration_hits;
        let mark = st.iteration_marks.back().map_or(0, |m| m.0);
        let traps: Vec<u64> = st
            .log
            .iter()
            .filter(|e| {
                matches!(e.event.kind(), EventKind::TrapEnter | EventKind::TrapReturn)
                    && e.at >= mark
            })
            .map(|e| e.at)
            .collect();
        let e = traps.len();
        let offset = self.live.executed() - traps.last().copied().unwrap_or(mark);
        // The other variant's machine, parked with its checkpoints since it
        // was last on screen (or pre-run in idle time), else a new one.
        let mut l = match self.parked.get_mut(to).and_then(Option::take) {
            Some(l) => l,
            None => {
                self.make_room();
                match Live::new(&self.scenario, to, &self.opts()) {
                    Ok(l) => l,
                    Err(err) => return self.error(err.to_string()),
                }
            }
        };
        // A machine whose first checkpoint is past where this goes (one
        // that opened at the lesson's start) is replaced by a new one.
        let first = l.cps.as_ref().and_then(|c| c.positions().first().copied());
        if first.is_none_or(|f| f > 0 && l.stats().iteration_hits >= k) {
            l = match Live::new(&self.scenario, to, &self.opts()) {
                Ok(l) => l,
                Err(err) => return self.error(err.to_string()),
            };
        }
        let mut p = self.progress.take();
        let mut stopped = false;
        // From the last checkpoint before its k-th iteration mark (or the
        // last before the mark this machine is past), forward from there.
        let past = l.stats().iteration_hits >= k;
        if let Some(c) = l.cps.as_mut() {
            let from = c.last_where(|s| s.iteration_hits() < k).unwrap_or(0);
            if l.m.executed() < from || past {
                let mut run = long::pieces("switching", from, &mut p);
                match c.go_to(&mut l.m, from, &mut run) {
                    Ok((Outcome::Interrupted, _)) => stopped = true,
                    Ok(_) => {}
                    Err(e) => {
                        drop(run);
                        self.progress = p;
                        self.parked[to] = Some(l);
                        return self.error(e.to_string());
                    }
                }
            }
        }
        let sym = self.scenario.measure.as_ref().map(|m| m.iteration.clone());
        let iter_addr = sym.and_then(|s| l.program().symbol(&s).map(|x| x.addr));
        if let Some(a) = iter_addr.filter(|_| !stopped) {
            let u = Until {
                max_insns: Some(RUN_BUDGET),
                addrs: vec![a],
                kinds: vec![],
            };
            // Up to the k-th mark and over it: a run from the mark passes
            // it (and counts it), then stops before the next one.
            while k > l.stats().iteration_hits {
                if l.m.pc() == a && l.stats().iteration_hits + 1 == k {
                    // A checkpoint right before the k-th mark: the next Tab
                    // to this iteration starts here.
                    if let Some(c) = l.cps.as_mut() {
                        let _ = c.take(&mut l.m);
                    }
                    l.m.step();
                    break;
                }
                match long::run(&mut l.m, &u, "switching", &mut p, l.cps.as_mut()) {
                    Outcome::ReachedAddr(_) => {}
                    Outcome::Interrupted => {
                        stopped = true;
                        break;
                    }
                    _ => break,
                }
            }
        }
        self.progress = p;
        if stopped {
            // Esc: the variant on screen stays; the other keeps how far it got.
            self.parked[to] = Some(l);
            return self.say(format!(
                "Tab stopped (Esc); still on variant {}",
                self.variant_name()
            ));
        }
        // The same place is the same function and offset: the same pc when
        // the variants share an ELF, the matching pc in another build (two
        // kernels, whose shared code moves when a patch changes its size).
        let here = self.live.m.pc();
        let (from_p, to_p) = (self.live.program().clone(), l.program().clone());
        let same_place = |a: u64| {
            from_p
                .symbol_at(a)
                .and_then(|(s, off)| to_p.symbol(&s.name).map(|t| t.addr + off))
                .unwrap_or(a)
        };
        let pc = same_place(here);
        // Breakpoints follow to the same places.
        self.breakpoints = self.breakpoints.iter().map(|&a| same_place(a)).collect();
        // In the measured loop: the same arrival at that pc since the
        // iteration began (update/place.rs). Trap events are no measure
        // there: one variant may take a trap the other does not (a first
        // use of V), and then "the same trap event" is another syscall.
        // Before the loop (boot, a probe of the hardware) trap events are
        // the moments to match: an AMO that traps on one core only.
        if k > 0
            && let Some(pl) = self.place()
        {
            let mark_at = l.executed();
            let iter_addr = self.iteration_addr(&l);
            let mut p = self.progress.take();
            let r = super::place::seek(&mut l, pc, pl.arrivals, iter_addr, &mut p);
            self.progress = p;
            match r {
                Ok(true) => return self.tab_landed(l, (from_variant, from_at), pl.arrivals),
                Err(_) => {
                    self.parked[to] = Some(l);
                    return self.say(format!(
                        "Tab stopped (Esc); still on variant {}",
                        self.variant_name()
                    ));
                }
                Ok(false) => {
                    // Not reached as often in this iteration here: back to
                    // the mark, and by trap event below.
                    let mut run =
                        |m: &mut crate::machine::Machine<_>, n: u64| session::run_to(m, n);
                    if let Some(c) = l.cps.as_mut() {
                        let _ = c.go_to(&mut l.m, mark_at, &mut run);
                    }
                    if l.executed() != mark_at {
                        match session::rewind(
                            &self.scenario,
                            &self.scenario.variants[to],
                            &self.opts(),
                            mark_at,
                        ) {
                            Ok((m, _)) => l = Live::from_machine(to, m, l.regs),
                            Err(err) => return self.error(err.to_string()),
                        }
                    }
                }
            }
        }
        let u = Until {
            max_insns: Some(RUN_BUDGET),
            addrs: vec![],
            kinds: vec![EventKind::TrapEnter, EventKind::TrapReturn],
        };
        for _ in 0..e {
            if !matches!(l.m.run(&u), Outcome::ReachedEvent(_)) {
                break;
            }
        }
        // Go to the pc if it comes soon; otherwise (code only this variant
        // has) the same number of instructions past the event.
        let event_at = l.executed();
        // A function the builds compile differently: its offsets need not
        // be the same instruction.
        let changed = from_p.symbol_at(here).and_then(|(s, _)| {
            let t = to_p.symbol(&s.name)?;
            (t.size != s.size).then(|| s.name.clone())
        });
        let near = Until {
            max_insns: Some(offset * 2 + 64),
            addrs: vec![pc],
            kinds: vec![],
        };
        let mut o = if offset == 0 {
            Outcome::Stepped
        } else {
            l.m.run(&near)
        };
        let found = matches!(o, Outcome::ReachedAddr(_));
        if !matches!(o, Outcome::ReachedAddr(_) | Outcome::Stepped) {
            let target = event_at + offset;
            let mut run = |m: &mut crate::machine::Machine<_>, n: u64| session::run_to(m, n);
            let r = match l.cps.as_mut() {
                Some(c) => c.go_to(&mut l.m, target, &mut run).map(|(o, _)| o),
                None => session::rewind(
                    &self.scenario,
                    &self.scenario.variants[to],
                    &self.opts(),
                    target,
                )
                .map(|(m, o2)| {
                    l = Live::from_machine(to, m, l.regs);
                    o2
                }),
            };
            match r {
                Ok(o2) => o = o2,
                Err(err) => return self.error(err.to_string()),
            }
        }
        if let Some(c) = l.cps.as_mut() {
            let _ = c.note(&mut l.m);
        }
        let from_name = self.swap_in(l);
        self.sync_sources();
        self.describe(&o);
        let mut place = if found {
            format!("at {}", self.live.program().describe(self.live.m.pc()))
        } else {
            format!("{offset} instructions past it")
        };
        if let Some(f) = changed {
            place.push_str(&format!(
                " ({f} differs between the two builds: the same offset may be another instruction)"
            ));
        }
        // The registers pane's marks compare the two variants here.
        self.tab_back = Some(((from_variant, from_at), (to, self.live.executed())));
        let it = self.live.stats().iteration_place();
        self.say(format!(
            "variant {}: {it}, trap event {e}, {place}; * marks registers that differ from {from_name}",
            self.variant_name()
        ));
        self.narrate_here();
    }

    /// Tab found the same place in the measured loop: `l` is at the
    /// arrival after `arrivals` at the matching pc since its iteration began.
    fn tab_landed(&mut self, mut l: Live, from: (usize, u64), arrivals: u64) {
        let to = l.variant;
        if let Some(c) = l.cps.as_mut() {
            let _ = c.note(&mut l.m);
        }
        // A function the builds compile differently: its offsets need not
        // be the same instruction.
        let here = self.live.m.pc();
        let changed = self.live.program().symbol_at(here).and_then(|(s, _)| {
            let t = l.program().symbol(&s.name)?;
            (t.size != s.size).then(|| s.name.clone())
        });
        let from_name = self.swap_in(l);
        self.sync_sources();
        self.message = None;
        self.live.outcome = Some(Outcome::Stepped);
        let at = self.live.program().describe(self.live.m.pc());
        let nth = arrivals + 1;
        let mut place = format!("at {at}, arrival {nth} there in this iteration");
        if let Some(f) = changed {
            place.push_str(&format!(
                " ({f} differs between the two builds: the same offset may be another instruction)"
            ));
        }
        self.tab_back = Some((from, (to, self.live.executed())));
        let it = self.live.stats().iteration_place();
        self.say(format!(
            "variant {}: {it}, {place}; * marks registers that differ from {from_name}",
            self.variant_name()
        ));
        self.narrate_here();
    }

    /// The narration where a change of variant landed: the function's the
    /// pc is in, else a line naming the variant and the place. The text on
    /// screen (a lesson step's, or the last narrated function's) was about
    /// the variant left, so it does not stay.
    pub(crate) fn narrate_here(&mut self) {
        let p = self.live.program();
        let pc = self.live.m.pc();
        let func = p.symbol_at(pc).map(|(s, _)| s.name.clone());
        let text = match func.as_deref().and_then(|f| self.scenario.narration_for(f)) {
            Some(t) => t.to_string(),
            None => {
                let v = &self.scenario.variants[self.live.variant];
                let label = match v.label.as_str() {
                    "" => String::new(),
                    l => format!(" ({l})"),
                };
                format!(
                    "Variant {}{label} at {}, {}. The scenario has no narration for {}.",
                    v.name,
                    p.describe(pc),
                    self.live.stats().iteration_place(),
                    func.as_deref().unwrap_or("this code")
                )
            }
        };
        self.set_narration(text);
    }

    /// Puts `l` on screen and parks the machine that was; the name of the
    /// variant it was. The registers pane marks what differs between them.
    fn swap_in(&mut self, mut l: Live) -> String {
        l.regs = self.live.regs;
        l.refresh(0);
        let from = std::mem::replace(&mut self.live, l);
        self.narration_left = Some(((from.variant, from.executed()), self.narration.clone()));
        let name = self.scenario.variants[from.variant].name.clone();
        if let Some(slot) = self.parked.get_mut(from.variant) {
            *slot = Some(from);
        }
        name
    }

    /// Tab straight back: variant `to` at instruction count `n`, where the
    /// last Tab left it (its parked machine, by checkpoint if idle time ran
    /// it on). False if that machine is gone.
    fn return_to(&mut self, to: usize, n: u64) -> bool {
        let Some(mut l) = self.parked.get_mut(to).and_then(Option::take) else {
            return false;
        };
        if l.executed() != n {
            let mut run = |m: &mut crate::machine::Machine<_>, k: u64| session::run_to(m, k);
            let moved = l.cps.as_mut().map(|c| c.go_to(&mut l.m, n, &mut run));
            match moved {
                Some(Ok((o, _))) if l.m.executed() == n => l.outcome = Some(o),
                _ => {
                    self.parked[to] = Some(l);
                    return false;
                }
            }
        }
        let left = (self.live.variant, self.live.executed());
        let back = self.narration_left.take();
        let from_name = self.swap_in(l);
        self.sync_sources();
        self.tab_back = Some((left, (to, n)));
        self.say(format!(
            "variant {}: back where Tab left it, at instruction {n}; * marks registers that differ from {from_name}",
            self.variant_name()
        ));
        // The text that was on screen here (a lesson step's, say).
        match back {
            Some((at, Some(t))) if at == (to, n) => self.set_narration(t),
            _ => self.narrate_here(),
        }
        true
    }
}

impl AppState {
    /// The live variant's sources (a variant switch changes program).
    pub fn sync_sources(&mut self) {
        let v = self.live.variant;
        let Some(slot) = self.source_cache.get_mut(v) else {
            return;
        };
        let program = self.live.program().clone();
        let loaded = slot.get_or_insert_with(|| Rc::new(SourceFiles::new(program)));
        self.sources = loaded.clone();
    }
}
