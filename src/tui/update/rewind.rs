//! The live machine put at an instruction count: restored from the
//! nearest checkpoint at or before it and re-executed, or run from
//! power-on on a new machine before the first checkpoint.

use super::long;
use crate::machine::Outcome;
use crate::session;
use crate::tui::state::{AppState, Live};

impl AppState {
    /// Puts the live machine at `n` instructions: from its nearest
    /// checkpoint at or before `n`, or, before the first one it
    /// holds, from power-on on a new machine (which then keeps its own).
    pub fn go_to(&mut self, n: u64) {
        let prev = self.live.regs;
        let prev_fp = self.live.fp.clone();
        let before = self.live.executed();
        let mut p = self.progress.take();
        let mut run = long::pieces("re-executing", n, &mut p);
        let held = self
            .live
            .cps
            .as_ref()
            .is_some_and(|c| c.positions().first().is_some_and(|&f| f <= n));
        let r = if held {
            let l = &mut self.live;
            let cps = l.cps.as_mut().expect("held");
            cps.go_to(&mut l.m, n, &mut run).map(|(o, _)| (None, o))
        } else {
            session::build_machine(
                &self.scenario,
                &self.scenario.variants[self.live.variant],
                &self.opts(),
            )
            .and_then(|m| {
                let mut l = Live::from_machine(self.live.variant, m, prev);
                let o = match l.cps.as_mut() {
                    Some(c) => c.run_to(&mut l.m, n, false, &mut run)?,
                    None => run(&mut l.m, n),
                };
                Ok((Some(l), o))
            })
        };
        drop(run);
        self.progress = p;
        match r {
            Ok((_, Outcome::Interrupted)) => {
                // The machine on screen stays where it was: a restored one
                // goes back there (a checkpoint and a short re-execution).
                if held {
                    crate::machine::sigint::flag()
                        .store(false, std::sync::atomic::Ordering::Relaxed);
                    let l = &mut self.live;
                    if let Some(c) = l.cps.as_mut() {
                        let _ = c.go_to(&mut l.m, before, &mut |m, to| session::run_to(m, to));
                    }
                    self.live.regs = prev;
                    self.live.refresh(0);
                }
                self.say(format!(
                    "stopped (Esc) re-executing to {n} instructions; still at {}",
                    self.live.executed()
                ));
            }
            Ok((fresh, o)) => {
                if let Some(l) = fresh {
                    self.live = l;
                }
                self.live.regs = prev;
                self.live.fp = prev_fp.clone();
                self.live.refresh(0);
                self.live.mark_fp_since(&prev_fp);
                self.describe(&o);
                if held {
                    self.note_thinned();
                }
                self.live.outcome = Some(o);
                self.update_narration();
            }
            Err(e) => self.error(e.to_string()),
        }
    }
}
