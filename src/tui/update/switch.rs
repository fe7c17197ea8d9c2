//! Tab: the same place in another variant (the same iteration, trap event,
//! and function and offset), which may be another build of the guest.

use super::RUN_BUDGET;
use crate::machine::{Outcome, Until};
use crate::session;
use crate::trace::EventKind;
use crate::tui::state::{AppState, Live};

impl AppState {
    /// Shows another variant at the same iteration and trap event.
    pub fn switch_variant(&mut self, to: usize) {
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
        let mut l = match Live::new(&self.scenario, to, &self.opts()) {
            Ok(l) => l,
            Err(err) => return self.error(err),
        };
        let sym = self.scenario.measure.as_ref().map(|m| m.iteration.clone());
        let iter_addr = sym.and_then(|s| l.program().symbol(&s).map(|x| x.addr));
        if let Some(a) = iter_addr {
            let u = Until {
                max_insns: Some(RUN_BUDGET),
                addrs: vec![a],
                kinds: vec![],
            };
            // Each run passes the marker it stopped at before (and counts it),
            // then stops before the next one; the k-th is stepped over.
            while k > 0 && matches!(l.m.run(&u), Outcome::ReachedAddr(_)) {
                if l.stats().iteration_hits + 1 == k {
                    l.m.step();
                    break;
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
        // The same place is the same function and offset: the same pc when
        // the variants share an ELF, the matching pc in another build (two
        // kernels, whose shared code moves when a patch changes its size).
        // Go there if it comes soon; otherwise (code only this variant has)
        // the same number of instructions past the event.
        let event_at = l.executed();
        let here = self.live.m.pc();
        let (from_p, to_p) = (self.live.program().clone(), l.program().clone());
        let same_place = |a: u64| {
            from_p
                .symbol_at(a)
                .and_then(|(s, off)| to_p.symbol(&s.name).map(|t| t.addr + off))
                .unwrap_or(a)
        };
        let pc = same_place(here);
        // A function the builds compile differently: its offsets need not
        // be the same instruction.
        let changed = from_p.symbol_at(here).and_then(|(s, _)| {
            let t = to_p.symbol(&s.name)?;
            (t.size != s.size).then(|| s.name.clone())
        });
        // Breakpoints follow to the same places.
        self.breakpoints = self.breakpoints.iter().map(|&a| same_place(a)).collect();
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
            match session::rewind(
                &self.scenario,
                &self.scenario.variants[to],
                &self.opts(),
                event_at + offset,
            ) {
                Ok((m, o2)) => {
                    l = Live::from_machine(to, m, l.regs);
                    o = o2;
                }
                Err(err) => return self.error(err),
            }
        }
        l.regs = self.live.regs;
        l.refresh(0);
        self.live = l;
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
        self.say(format!(
            "variant {}: iteration {k}, trap event {e}, {place}",
            self.variant_name()
        ));
        self.update_narration();
    }
}
