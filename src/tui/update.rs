//! `update`, the only place the TUI's state changes
//! (docs/decisions.md C4): each `Action` (`action.rs`, re-exported here)
//! carried out.

use std::time::Instant;

pub use super::action::Action;
use super::keymap::next_mode;
use super::layout;
use super::state::{AppState, Mode, PAN_STEP, Pane};
use crate::trace::{EventKind, Priv};

/// Instructions a free run may take before it gives the screen back.
pub const RUN_BUDGET: u64 = 20_000_000;

mod debug;
mod diff;
mod goto;
pub mod idle;
mod lesson;
mod lines;
pub mod long;
mod moves;
pub(crate) mod place;
mod reverse;
mod rewind;
mod stepping;
mod switch;

impl AppState {
    pub fn update(&mut self, a: Action) {
        let t0 = Instant::now();
        if a == Action::Suspend {
            return self.say(super::signals::CANNOT_STOP);
        }
        if self.mode == Mode::Help && a != Action::Quit {
            // Up/Down and PgUp/PgDn scroll the help; any other key closes it.
            self.mode = next_mode(&self.mode, &a);
            if self.mode != Mode::Help {
                self.help_scroll = 0;
                return;
            }
            let by: i64 = match a {
                Action::ScrollUp => -1,
                Action::ScrollDown => 1,
                Action::PageUp => -10,
                Action::PageDown => 10,
                _ => 0,
            };
            let area = self.views.screen.get().unwrap_or_default();
            let max = layout::help::max_scroll(area);
            self.help_scroll = (self.help_scroll as i64 + by).clamp(0, max as i64) as usize;
            return;
        }
        // The keyboard's mode, as the keymap says the action leaves it.
        let before = std::mem::replace(&mut self.mode, Mode::Normal);
        self.mode = next_mode(&before, &a);
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
                let t = layout::tabs(self.lower);
                let now = layout::front(self);
                let i = t.iter().position(|p| *p == now).unwrap_or(0);
                self.tab = (i + 1) % t.len();
                self.focus = t[self.tab];
                self.highlight = None;
            }
            Action::NextPane => {
                // Only the panes the last frame showed (the compact layout's
                // shared place shows one at a time).
                let on = layout::shown(layout::last_screen(self), self);
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
            Action::Advance => self.advance(),
            Action::SearchNext => self.search_again(true),
            Action::SearchPrev => self.search_again(false),
            Action::Submit => match before {
                Mode::Command(s) => self.command(&s),
                Mode::Search(q) => self.search_submit(q),
                _ => {}
            },
            // The mode is all these change (`next_mode`).
            Action::Help
            | Action::CommandStart
            | Action::SearchStart
            | Action::Input(_)
            | Action::Backspace
            | Action::Cancel => {}
            Action::Quit => self.quit = true,
            Action::Suspend => {}
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

    /// The privilege the guest is in.
    pub fn priv_(&self) -> Priv {
        self.live.m.priv_()
    }
}
