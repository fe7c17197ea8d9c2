//! The terminal interface (ratatui + crossterm): keys become actions, `update`
//! changes the state, and `render` draws it. The terminal is restored on
//! every way out, panics and Ctrl-C included.

pub mod command;
pub mod keymap;
pub mod latency;
pub mod render;
pub mod script;
pub mod search;
pub mod state;
pub mod update;

use std::io::IsTerminal;
use std::rc::Rc;
use std::time::Instant;

use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEventKind, MouseButton,
    MouseEventKind,
};
use ratatui::crossterm::execute;

use crate::cost::Profile;
use crate::scenario::Scenario;
use keymap::Keymap;
use state::{AppState, Mode};
use update::Action;

/// Restores the terminal when dropped, whatever the way out.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

/// The action for a key, given what the keyboard is doing.
pub fn key_action(keys: &Keymap, mode: &Mode, k: event::KeyEvent) -> Option<Action> {
    let ctrl_c = k.code == KeyCode::Char('c') && k.modifiers.contains(event::KeyModifiers::CONTROL);
    match mode {
        _ if ctrl_c => Some(Action::Quit),
        Mode::Command(_) | Mode::Search(_) => match k.code {
            KeyCode::Enter => Some(Action::Submit),
            KeyCode::Esc => Some(Action::Cancel),
            KeyCode::Backspace => Some(Action::Backspace),
            KeyCode::Char(c) => Some(Action::Input(c)),
            _ => None,
        },
        Mode::Help => Some(Action::Cancel),
        Mode::Normal => keys.action(k),
    }
}

pub fn run(
    scenario: Scenario,
    core: Option<Rc<Profile>>,
    autoplay: bool,
    machine: crate::machine::MachineConfig,
) -> Result<(), String> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err("the TUI needs a terminal; for output to a pipe use `trapscope run` or `trapscope compare`".into());
    }
    let mut s = AppState::with_config(Rc::new(scenario), core, machine)?;
    if autoplay {
        if s.player.steps.is_empty() {
            s.error("this scenario has no [[script]]: nothing to autoplay");
        } else {
            s.say("lesson: press Space for the first step");
        }
    }
    let mut terminal = ratatui::init();
    let _guard = Guard;
    // ratatui::init restores on panic; mouse capture must go too.
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        prev(info);
    }));
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let keys = Keymap::default();
    let mut key_at: Option<Instant> = None;
    loop {
        let t = Instant::now();
        terminal
            .draw(|f| render::draw(f, &s))
            .map_err(|e| e.to_string())?;
        s.timing.render_us = t.elapsed().as_micros() as u64;
        if let Some(k) = key_at.take() {
            s.timing.key_to_frame_us = k.elapsed().as_micros() as u64;
            let t = s.timing;
            s.timing.shown = (t.update_us, t.render_us, t.key_to_frame_us);
        }
        if s.quit {
            return Ok(());
        }
        let ev = event::read().map_err(|e| e.to_string())?;
        key_at = Some(Instant::now());
        let size = terminal.size().map_err(|e| e.to_string())?;
        let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
        let action = match ev {
            Event::Key(k) if k.kind == KeyEventKind::Press => key_action(&keys, &s.mode, k),
            Event::Mouse(m) => {
                let hit = render::areas(area, &s)
                    .into_iter()
                    .find(|(_, r)| r.contains((m.column, m.row).into()))
                    .map(|(p, _)| p);
                match (m.kind, hit) {
                    (MouseEventKind::Down(MouseButton::Left), Some(p)) => Some(Action::Focus(p)),
                    (MouseEventKind::ScrollUp, Some(p)) => {
                        s.update(Action::Focus(p));
                        Some(Action::ScrollUp)
                    }
                    (MouseEventKind::ScrollDown, Some(p)) => {
                        s.update(Action::Focus(p));
                        Some(Action::ScrollDown)
                    }
                    _ => None,
                }
            }
            _ => None, // a resize just redraws
        };
        if let Some(a) = action
            && acts_at(&a, size.width, size.height)
        {
            s.update(a);
        }
    }
}

/// While the screen is too small to show the panes, only quitting acts: a
/// key must not change what the user cannot see.
pub fn acts_at(a: &Action, width: u16, height: u16) -> bool {
    let tiny = width < render::MIN_WIDTH || height < render::MIN_HEIGHT;
    !tiny || *a == Action::Quit
}
