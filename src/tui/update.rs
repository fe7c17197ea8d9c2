//! Actions and `update`, the only place the TUI's state changes
//! (CONVENTIONS.md 4).

use std::time::Instant;

use super::state::{AppState, Live, Mode, PAN_STEP, Pane};
use crate::isa::{Op, RasHint};
use crate::machine::{Outcome, Until};
use crate::session;
use crate::trace::{EventKind, Priv};

/// Instructions a free run may take before it gives the screen back.
pub const RUN_BUDGET: u64 = 20_000_000;
/// Instructions `step out` single-steps at most.
const STEP_OUT_LIMIT: u64 = 2_000_000;

mod goto;
pub mod idle;
mod lesson;
mod lines;
pub mod long;
pub(crate) mod place;
mod reverse;
mod switch;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Step,
    StepOver,
    StepOut,
    Continue,
    RunToTrap,
    StepBack,
    ReverseContinue,
    /// `r`: back to the start (where the lesson is).
    Restart,
    /// `R`: back to power-on.
    Reset,
    SwitchVariant,
    ToggleBreakpoint,
    ToggleDisasm,
    ToggleVector,
    /// Bring the next shared pane forward (the compact layout).
    NextTab,
    CycleFilter,
    NextPane,
    Focus(Pane),
    ScrollUp,
    ScrollDown,
    /// Left / Right: the focused pane's columns past its edge.
    PanLeft,
    PanRight,
    /// PgUp / PgDn: a page in the focused pane.
    PageUp,
    PageDown,
    /// `D`: the path diff view.
    ToggleDiff,
    /// Enter: the source of the diff's selected line.
    DiffJump,
    Help,
    /// Space: play the next script step.
    Advance,
    CommandStart,
    /// `/`: the search prompt; `]`/`[` the next and previous match.
    SearchStart,
    SearchNext,
    SearchPrev,
    Input(char),
    Backspace,
    Submit,
    Cancel,
    Quit,
}

impl AppState {
    pub fn update(&mut self, a: Action) {
        let t0 = Instant::now();
        if self.mode == Mode::Help && a != Action::Quit {
            // Up/Down and PgUp/PgDn scroll the help; any other key closes it.
            let by: i64 = match a {
                Action::ScrollUp => -1,
                Action::ScrollDown => 1,
                Action::PageUp => -10,
                Action::PageDown => 10,
                _ => 0,
            };
            if by == 0 {
                self.mode = Mode::Normal;
                self.help_scroll = 0;
            } else {
                let area = self.views.screen.get().unwrap_or_default();
                let max = crate::tui::render::help::max_scroll(area);
                self.help_scroll = (self.help_scroll as i64 + by).clamp(0, max as i64) as usize;
            }
            return;
        }
        // Actions that move the machine (a recording keeps them as steps).
        // A command (`:run`, `:goto`) may move it too.
        let moves = crate::tui::input::moves_machine(&a) || a == Action::Submit;
        let variant_before = self.live.variant;
        let a_kind = a.clone();
        match a {
            Action::Step => self.moved(|l| l.m.step()),
            Action::StepOver => self.step_over(),
            Action::StepOut => self.step_out(),
            Action::Continue => {
                let u = self.until(vec![]);
                self.moved_long("continue", &u);
            }
            Action::RunToTrap => {
                let u = self.until(vec![EventKind::TrapEnter, EventKind::TrapReturn]);
                self.moved_long("run to trap", &u);
                self.say_reached_trap();
            }
            Action::StepBack if self.live.executed() == 0 => {
                self.say(
                    "at the start of the run (instruction 0): nothing before it to step back to",
                );
            }
            Action::StepBack => self.step_back_one(),
            Action::ReverseContinue => self.reverse_continue(),
            // A lesson starts over with the guest.
            Action::Restart => self.restart_here(),
            Action::Reset => self.reset_power_on(),
            Action::SwitchVariant => {
                let next = (self.live.variant + 1) % self.scenario.variants.len();
                self.switch_variant(next);
                // The cycles pane follows the new variant's line again.
                self.views.reset(Pane::Cycles);
            }
            Action::ToggleBreakpoint => {
                let pc = self.live.m.pc();
                if !self.breakpoints.remove(&pc) {
                    self.breakpoints.insert(pc);
                }
                let what = if self.breakpoints.contains(&pc) {
                    "set"
                } else {
                    "removed"
                };
                self.say(format!(
                    "breakpoint {what} at {}",
                    self.live.program().describe(pc)
                ));
            }
            Action::ToggleDisasm => self.disasm = !self.disasm,
            Action::ToggleVector => {
                let all = self.lowers();
                let i = all.iter().position(|l| *l == self.lower).unwrap_or(0);
                self.lower = all[(i + 1) % all.len()];
            }
            Action::CycleFilter => {
                self.filter = self.filter.next();
                self.events_scroll = 0;
            }
            Action::NextTab => {
                // Forward from the pane in front, which a focus or a lesson
                // step may have chosen; focus follows, so it stays in front,
                // and a lesson's highlight gives way.
                let t = crate::tui::render::tabs(self.lower);
                let now = crate::tui::render::front(self);
                let i = t.iter().position(|p| *p == now).unwrap_or(0);
                self.tab = (i + 1) % t.len();
                self.focus = t[self.tab];
                self.highlight = None;
            }
            Action::NextPane => {
                // Only the panes the last frame showed (the compact layout's
                // shared place shows one at a time).
                let area = self
                    .views
                    .screen
                    .get()
                    .unwrap_or(ratatui::layout::Rect::new(
                        0,
                        0,
                        crate::tui::render::WIDE_WIDTH,
                        crate::tui::render::WIDE_HEIGHT,
                    ));
                let on = crate::tui::render::shown(area, self);
                let i = on.iter().position(|p| *p == self.focus);
                if let Some(next) = i.map_or(on.first(), |i| on.get((i + 1) % on.len())) {
                    self.focus = *next;
                }
            }
            Action::Focus(p) => self.focus = p,
            Action::ScrollUp => self.scroll(-1),
            Action::ScrollDown => self.scroll(1),
            Action::PanLeft => self.views.scroll(self.focus, -i32::from(PAN_STEP), 0),
            Action::PanRight => self.views.scroll(self.focus, i32::from(PAN_STEP), 0),
            Action::PageUp => self.scroll(-self.views.page(self.focus, super::state::diff_page())),
            Action::PageDown => self.scroll(self.views.page(self.focus, super::state::diff_page())),
            Action::ToggleDiff => self.toggle_diff(),
            Action::DiffJump => self.diff_jump(),
            Action::Help => self.mode = Mode::Help,
            Action::Advance => self.advance(),
            Action::CommandStart => self.mode = Mode::Command(String::new()),
            Action::SearchStart => self.mode = Mode::Search(String::new()),
            Action::SearchNext => self.search_again(true),
            Action::SearchPrev => self.search_again(false),
            Action::Input(c) => {
                if let Mode::Command(s) | Mode::Search(s) = &mut self.mode {
                    s.push(c);
                }
            }
            Action::Backspace => {
                if let Mode::Command(s) | Mode::Search(s) = &mut self.mode
                    && s.pop().is_none()
                {
                    self.mode = Mode::Normal;
                }
            }
            Action::Submit => match std::mem::replace(&mut self.mode, Mode::Normal) {
                Mode::Command(s) => self.command(&s),
                Mode::Search(q) => self.search_submit(q),
                _ => {}
            },
            Action::Cancel => self.mode = Mode::Normal,
            Action::Quit => self.quit = true,
        }
        self.refresh_diff();
        // Machines may have come or gone (Tab, a knob, a core).
        self.balance_history();
        if moves {
            let tab = matches!(a_kind, Action::SwitchVariant | Action::Submit)
                && self.live.variant != variant_before;
            if tab {
                self.record_switch();
            } else {
                self.record_after();
            }
        }
        self.timing.update_us = t0.elapsed().as_micros() as u64;
    }

    /// `b` pressed `n` times in a row: one re-execution.
    pub fn step_back_by(&mut self, n: u64) {
        if self.live.executed() == 0 {
            return self.update(Action::StepBack); // says why nothing moves
        }
        // The last press goes through `step_back_one`, so that the run of
        // presses ends on a state `b` can reach (a trap delivered before
        // any instruction ran shares its count with the state before it).
        let to = self.live.executed().saturating_sub(n.saturating_sub(1));
        if n > 1 {
            self.go_to(to);
        }
        if self.live.executed() > 0 {
            self.step_back_one();
        }
        self.record_after();
    }

    /// As `moved`, for a run that may be long: in pieces with progress,
    /// and Esc stops it where it is.
    fn moved_long(&mut self, what: &str, u: &Until) {
        let mut p = self.progress.take();
        self.moved(|l| long::run(&mut l.m, u, what, &mut p, l.cps.as_mut()));
        self.progress = p;
        if self.live.outcome == Some(Outcome::Interrupted) {
            let here = self.live.program().describe(self.live.m.pc());
            self.say(format!(
                "{what} stopped (Esc) at {here} after {} instructions; c goes on",
                self.live.executed()
            ));
        }
    }

    pub fn say(&mut self, msg: impl Into<String>) {
        self.message = Some((msg.into(), false));
    }

    pub fn error(&mut self, msg: impl Into<String>) {
        self.message = Some((msg.into(), true));
    }

    fn scroll(&mut self, d: i64) {
        match self.focus {
            Pane::Events => {
                self.events_scroll = (self.events_scroll as i64 - d).max(0) as usize;
            }
            Pane::Source => self.source_scroll += d,
            Pane::Memory => self.debug.scroll_memory(d),
            Pane::Diff => self.diff_move(d),
            // The others scroll the rows they have no room for.
            p => self.views.scroll(p, 0, d.clamp(-1000, 1000) as i32),
        }
    }

    /// Stops for breakpoints and the budget, plus `kinds`.
    pub fn until(&self, kinds: Vec<EventKind>) -> Until {
        Until {
            max_insns: Some(RUN_BUDGET),
            addrs: self.breakpoints.iter().copied().collect(),
            kinds,
        }
    }

    /// Moves the machine forward with `f` and reads the new state; the
    /// watchpoints stop it.
    pub fn moved(&mut self, f: impl FnOnce(&mut Live) -> Outcome) {
        self.moved_with(true, f);
    }

    /// As `moved`; `watched`: whether the watchpoints stop `f`. They are in
    /// the machine only while the move they stop runs: a step back, `r`, a
    /// re-execution for Tab or for naming a recorded step, and a lesson
    /// step (which must end at the same instruction however it is played)
    /// all run with none.
    pub fn moved_with(&mut self, watched: bool, f: impl FnOnce(&mut Live) -> Outcome) {
        let before = self.live.changed;
        if watched {
            self.live.m.set_watches(&self.debug.watch_list());
        }
        let o = f(&mut self.live);
        self.live.m.set_watches(&[]);
        if let Some(c) = self.live.cps.as_mut() {
            // A failed checkpoint only makes going back slower.
            let _ = c.note(&mut self.live.m);
        }
        self.live.refresh(before);
        self.source_scroll = 0;
        self.events_scroll = 0;
        self.describe(&o);
        self.live.outcome = Some(o);
        self.update_narration();
    }

    fn describe(&mut self, o: &Outcome) {
        let p = self.live.program().clone();
        match o {
            Outcome::Stepped | Outcome::ReachedEvent(_) => self.message = None,
            Outcome::ReachedAddr(a) => self.say(format!("stopped at {}", p.describe(*a))),
            Outcome::Breakpoint(a) => self.say(format!("ebreak at {}", p.describe(*a))),
            Outcome::Exited(_) if self.live.m.loop_ended() => {
                let line = self.bounded_by_knob("the measured loop ended".to_string());
                self.say(line)
            }
            Outcome::Exited(c) => {
                let line = self.bounded_by_knob(format!("the guest exited with code {c}"));
                self.say(line)
            }
            Outcome::Budget => self.say(format!(
                "ran {RUN_BUDGET} instructions without stopping; c goes on"
            )),
            Outcome::Fault(f) => self.error(f.to_string()),
            Outcome::Interrupted => self.say("interrupted".to_string()),
            Outcome::Watch(h) => self.say(h.describe(&p)),
        }
    }

    /// Puts the live machine at `n` instructions: from its nearest
    /// checkpoint at or before `n` (issue 14), or, before the first one it
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
            Err(e) => self.error(e),
        }
    }

    fn step_over(&mut self) {
        let pc = self.live.m.pc();
        let d = self
            .live
            .m
            .read_mem(pc, 4)
            .and_then(|b| crate::machine::decode_range(pc, &b).into_iter().next());
        let call = d.and_then(|d| d.insn.map(|i| (i, d.len))).filter(|(i, _)| {
            matches!(i.op, Op::Jal | Op::Jalr)
                && matches!(i.ras_hint(), RasHint::Push | RasHint::PopThenPush)
        });
        match call {
            Some((_, len)) => {
                let mut u = self.until(vec![]);
                u.addrs.push(pc + u64::from(len));
                self.moved(|l| l.m.run(&u));
            }
            None => self.moved(|l| l.m.step()),
        }
    }

    /// Single-steps until the current function returns: a RAS-pop jump at
    /// the starting call depth and privilege (calls in between nest).
    fn step_out(&mut self) {
        let start_priv = self.live.m.priv_();
        let bps = self.breakpoints.clone();
        self.moved(|l| {
            let mut depth = 0i64;
            for _ in 0..STEP_OUT_LIMIT {
                let pc = l.m.pc();
                let hint =
                    l.m.read_mem(pc, 4)
                        .and_then(|b| crate::machine::decode_range(pc, &b).into_iter().next())
                        .and_then(|d| d.insn)
                        .map(|i| i.ras_hint());
                let same = l.m.priv_() == start_priv;
                let o = l.m.step();
                if o != Outcome::Stepped {
                    return o;
                }
                match (hint, same) {
                    (Some(RasHint::Push), true) => depth += 1,
                    (Some(RasHint::Pop | RasHint::PopThenPush), true) => {
                        if depth == 0 {
                            return Outcome::Stepped;
                        }
                        depth -= 1;
                    }
                    _ => {}
                }
                if bps.contains(&l.m.pc()) {
                    return Outcome::ReachedAddr(l.m.pc());
                }
            }
            Outcome::Budget
        });
    }

    /// The privilege the guest is in.
    pub fn priv_(&self) -> Priv {
        self.live.m.priv_()
    }
}
