//! The diff view's commands on the app (`D`, its moves and jumps): which
//! pair it compares, its cache, and where a jump lands. The view's state
//! is `state/diff.rs`.

use std::rc::Rc;

use crate::report::pathdiff::{self, Op};
use crate::session::RunOpts;
use crate::session::path::Which;
use crate::tui::TuiError;
use crate::tui::state::AppState;
use crate::tui::state::diff::DiffKey;

impl AppState {
    /// The pair the live variant is in: (before, after) as indices. Its
    /// first `[[pair]]`, else the first other variant, as A or B by order.
    pub fn diff_pair(&self) -> Option<(usize, usize)> {
        let vs = &self.scenario.variants;
        let me = self.live.variant;
        let idx = |n: &str| vs.iter().position(|v| v.name == n);
        let name = vs.get(me)?.name.as_str();
        for p in &self.scenario.pairs {
            if p.before == name || p.after == name {
                return Some((idx(&p.before)?, idx(&p.after)?));
            }
        }
        let other = (0..vs.len()).find(|&i| i != me)?;
        Some((me.min(other), me.max(other)))
    }

    /// What the diff should be computed for now: the iteration the live
    /// machine is in, or (before the measured loop began, or after it
    /// ended) the default, a typical iteration.
    fn diff_key(&self) -> Option<DiffKey> {
        let (a, b) = self.diff_pair()?;
        let st = self.live.stats();
        let open = st.window_start.is_some() && st.window_end.is_none();
        let iteration = (open && st.iterations > 0).then_some(st.iterations);
        Some(DiffKey {
            a,
            b,
            iteration,
            core: self.core.as_ref().map(|c| c.name.clone()),
            set: self.set.clone(),
        })
    }

    /// `D`: opens or closes the view.
    pub fn toggle_diff(&mut self) {
        self.diff.open = !self.diff.open;
        self.diff.source_at = None;
        if self.diff.open {
            self.focus = super::Pane::Diff;
            self.refresh_diff();
        } else if self.focus == super::Pane::Diff {
            self.focus = super::Pane::Source;
        }
    }

    /// Recomputes the diff if what it is for changed (called after every
    /// action while the view is open).
    pub fn refresh_diff(&mut self) {
        if !self.diff.open {
            return;
        }
        if self.diff.source_at.is_some() && self.live.executed() != self.diff.source_at_executed {
            self.diff.source_at = None;
        }
        let Some(key) = self.diff_key() else {
            self.diff.key = None;
            self.diff.result = Some(Err(Rc::new(TuiError::NoPair)));
            return;
        };
        if self.diff.key.as_ref() == Some(&key) {
            return;
        }
        let opts = RunOpts {
            log_events: 0,
            ..self.opts()
        };
        let s = &self.scenario;
        let (a, b) = (&s.variants[key.a].name, &s.variants[key.b].name);
        let mut r = match key.iteration {
            Some(n) => pathdiff::diff_at(s, a, b, &opts, Which::Nth(n)).map(|mut d| {
                d.choice = pathdiff::Choice::Live;
                d
            }),
            None => pathdiff::diff_typical(s, a, b, &opts),
        };
        if r.is_err() && key.iteration.is_some() {
            // The live iteration never completes (the run ends in it).
            r = pathdiff::diff_typical(s, a, b, &opts);
        }
        if let Ok(d) = &r
            && matches!(d.choice, pathdiff::Choice::Typical { .. })
        {
            // In the TUI another iteration is the one the machine is in.
            let words = d.choice_words().replace(
                "--iteration N picks another.",
                "D inside the measured loop diffs the iteration the machine is in.",
            );
            self.say(format!("diff: {words}"));
        }
        self.diff.computed += 1;
        self.diff.selected = 0;
        self.diff.result = Some(r.map(Rc::new).map_err(|e| Rc::new(e.into())));
        self.diff.key = Some(key);
    }

    /// Up/Down/PgUp/PgDn in the view.
    pub fn diff_move(&mut self, d: i64) {
        let n = match &self.diff.result {
            Some(Ok(p)) => p.ops.len(),
            _ => 0,
        };
        let to = (self.diff.selected as i64 + d).clamp(0, n.saturating_sub(1) as i64);
        self.diff.selected = to as usize;
    }

    /// Enter: the source pane shows the selected line's source, on the live
    /// variant's side of the row (or the other's, when the live variant has
    /// no line there and both run the same program).
    pub fn diff_jump(&mut self) {
        if !self.diff.open {
            return;
        }
        let Some(Ok(d)) = self.diff.result.clone() else {
            return;
        };
        let Some(key) = self.diff.key.clone() else {
            return;
        };
        let Some(op) = d.ops.get(self.diff.selected).copied() else {
            return;
        };
        let (la, lb) = match op {
            Op::Same(i, j) => (Some(&d.a.lines[i]), Some(&d.b.lines[j])),
            Op::Del(i) => (Some(&d.a.lines[i]), None),
            Op::Ins(j) => (None, Some(&d.b.lines[j])),
        };
        let live = self.live.variant;
        let same_program = {
            let v = &self.scenario.variants;
            Rc::ptr_eq(&v[key.a].program, &v[key.b].program)
                || v[key.a].program.path == v[key.b].program.path
        };
        let mine = if live == key.a { la } else { lb };
        let line = match mine {
            Some(l) => Some(l),
            None if same_program => la.or(lb),
            None => None,
        };
        let Some(l) = line else {
            self.error("that line is not on this variant's path (Tab switches variant)");
            return;
        };
        match self.live.program().loc(l.pc) {
            Some(loc) => {
                self.diff.source_at = Some(loc);
                self.diff.source_at_executed = self.live.executed();
                self.say(format!(
                    "source of {} ({})",
                    l.at,
                    l.source.clone().unwrap_or_default()
                ));
            }
            None => self.error(format!("{} has no line in the line table", l.at)),
        }
    }
}
