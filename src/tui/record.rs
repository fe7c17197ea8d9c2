//! Recording a lesson in the TUI (docs/guides/lessons.md, "Recording a lesson"): `:record` starts, each
//! step taken becomes a `[[script]]` step, `:say TEXT` narrates the step
//! just taken, `:save FILE` writes them as TOML that the TUI's Space and
//! `trapscope run --script` replay.
//!
//! A step is named by where it ended, never by the key that took it: an
//! `event` kind with the `count` of such events since the step began, when
//! the move stopped right after an event; else the location of the pc
//! (`SYMBOL+0xOFF`) with the `count` of arrivals there since the step
//! began, counted by re-running the step (repeated hits of a location are
//! ambiguous otherwise). A move backwards drops the steps past the new
//! position. The replay begins where the lesson begins: the scenario's
//! `start_at`, else power-on.

use super::TuiError;
use super::state::AppState;
pub use super::state::{Mark, Recorded, Recorder};
use crate::machine::{Outcome, Until};
use crate::scenario::{ScriptStep, StepTarget};
use crate::session;
use crate::trace::EventKind;

/// The number of events the events pane lists before position `log_total`
/// (retired ranges left out: their number depends on how a run was cut
/// into blocks, so stepping and running differ in it).
pub fn shown_events(log: &crate::trace::EventLog) -> u64 {
    log.since(0)
        .filter(|(_, e)| e.event.kind() != EventKind::Retired)
        .count() as u64
}

impl AppState {
    fn mark(&self) -> Mark {
        Mark {
            variant: self.live.variant,
            executed: self.live.executed(),
            events: self.live.stats().log.total(),
        }
    }

    /// `:record`.
    pub fn start_recording(&mut self) {
        if let Some(r) = &self.recorder {
            let n = r.steps.len();
            return self.say(format!(
                "already recording ({n} steps): :say TEXT narrates the last, :save FILE writes them"
            ));
        }
        let origin = if self.scenario.start_at.is_some() {
            match self.find_start() {
                Ok(st) => Mark {
                    variant: st.variant,
                    executed: st.machine.executed(),
                    events: st.machine.observer().log.total(),
                },
                Err(e) => return self.error(format!("record: {e}")),
            }
        } else {
            Mark {
                variant: 0,
                executed: 0,
                events: 0,
            }
        };
        if self.live.variant != origin.variant {
            return self.error(format!(
                "record: a lesson begins in variant {}; Tab to it (or r) first",
                self.scenario.variants[origin.variant].name
            ));
        }
        self.recorder = Some(Recorder {
            origin,
            steps: Vec::new(),
            anchor: None,
        });
        self.record_after();
        let n = self.recorder.as_ref().map_or(0, |r| r.steps.len());
        let from = if self.scenario.start_at.is_some() {
            "the scenario's start_at"
        } else {
            "power-on"
        };
        let to_here = match n {
            0 => "no step yet".to_string(),
            1 => "1 step to here".to_string(),
            n => format!("{n} steps to here"),
        };
        self.say(format!(
            "recording from {from} ({to_here}): move with s n o c t :run Tab; :say TEXT narrates; :save FILE writes"
        ));
    }

    /// `:record off`: the steps not saved are dropped.
    pub fn stop_recording(&mut self) {
        match self.recorder.take() {
            Some(r) => self.say(format!(
                "recording stopped ({} steps; what :save did not write is gone)",
                r.steps.len()
            )),
            None => self.error("record off: not recording"),
        }
    }

    /// `:say TEXT`: narration for the step just taken.
    pub fn record_say(&mut self, text: &str) {
        let Some(r) = self.recorder.as_mut() else {
            return self.error("say: not recording (:record starts)");
        };
        let k = r.steps.len();
        let Some(last) = r.steps.last_mut() else {
            return self.error("say: take a step first; :say narrates the step just taken");
        };
        if !last.step.say.is_empty() {
            last.step.say.push(' ');
        }
        last.step.say.push_str(text.trim());
        let said = last.step.say.clone();
        self.set_narration(said);
        self.say(format!("recording: step {k} narrated"));
    }

    /// `:save FILE`: the steps as `[[script]]` TOML, to a new file.
    pub fn record_save(&mut self, path: &str) {
        let Some(r) = &self.recorder else {
            return self.error("save: not recording (:record starts)");
        };
        if path.is_empty() {
            return self.error("save: give a file name, e.g. :save lesson.toml");
        }
        if r.steps.is_empty() {
            return self.error("save: no steps recorded yet");
        }
        let text = script_toml(self, r);
        // A new file (O_EXCL: never through a link) in a directory of the user's.
        let written = crate::output::create_new(std::path::Path::new(path), text.as_bytes());
        match written {
            Ok(()) => self.say(format!(
                "saved {} steps to {path}: put them in the scenario, where Space plays them and run --script replays them",
                r.steps.len()
            )),
            Err(None) => self.error(format!("save: {path} exists; give a new file name")),
            Err(Some(e)) => self.error(format!("save: cannot write {e}")),
        }
    }

    /// After an action: keeps the move as a step (see the module doc).
    pub fn record_after(&mut self) {
        self.record_move(false);
    }

    /// After a variant switch: where the next step begins.
    pub fn record_switch(&mut self) {
        self.record_move(true);
    }

    fn record_move(&mut self, switched: bool) {
        let Some(mut r) = self.recorder.take() else {
            return;
        };
        let now = self.mark();
        let last = r.last();
        if switched {
            if now.variant != last.variant {
                r.anchor = Some(now);
            }
        } else if now.variant == last.variant && now.executed > last.executed {
            match self.name_step(last, &r) {
                Ok(step) => {
                    r.anchor = None;
                    r.steps.push(Recorded { step, end: now });
                }
                Err(e) => self.error(format!("recording: {e}; this move is not kept")),
            }
        } else if now != last {
            // Backwards, or another variant without a Tab (r, R): drop
            // the steps past here.
            r.anchor = None;
            while r
                .steps
                .last()
                .is_some_and(|s| s.end.variant != now.variant || s.end.executed > now.executed)
            {
                r.steps.pop();
            }
            let back = r.last();
            if back.variant == now.variant && now.executed > back.executed {
                match self.name_step(back, &r) {
                    Ok(step) => r.steps.push(Recorded { step, end: now }),
                    Err(e) => self.error(format!("recording: {e}; this move is not kept")),
                }
            } else if back.variant != now.variant || now.executed < back.executed {
                self.say(format!(
                    "recording: not on the lesson's path here (before where it begins, or another variant without Tab); {} steps kept",
                    r.steps.len()
                ));
            }
        }
        self.recorder = Some(r);
    }

    /// The script step from `from` to where the live machine is.
    fn name_step(&self, from: Mark, r: &Recorder) -> Result<ScriptStep, TuiError> {
        let variant = (r.anchor.is_some() || (r.steps.is_empty() && from.variant != 0))
            .then(|| self.variant_name().to_string());
        let log = &self.live.stats().log;
        if let Some(Outcome::ReachedEvent(k)) = self.live.outcome
            && log.total() > from.events
            && log
                .since(from.events)
                .next()
                .is_some_and(|(i, _)| i == from.events)
        {
            let count = log
                .since(from.events)
                .filter(|(_, e)| e.event.kind() == k)
                .count() as u64;
            return Ok(ScriptStep {
                target: StepTarget::Event(k),
                count,
                variant,
                say: String::new(),
                highlight: None,
            });
        }
        let pc = self.live.m.pc();
        let p = self.live.program();
        let named = p.describe(pc);
        let at = if p.locate(&named) == Ok(pc) {
            named
        } else {
            format!("{pc:#x}")
        };
        // Count the arrivals by running the step again.
        let v = &self.scenario.variants[from.variant];
        let (mut m, _) = session::rewind(&self.scenario, v, &self.opts(), from.executed)?;
        if m.executed() != from.executed {
            return Err(TuiError::StepStartLost);
        }
        let target = self.live.executed();
        let mut count = 0;
        while m.executed() < target {
            let o = m.run(&Until {
                max_insns: Some(super::update::RUN_BUDGET),
                addrs: vec![pc],
                kinds: vec![],
            });
            if o != Outcome::ReachedAddr(pc) {
                return Err(TuiError::NotReachedAgain { at });
            }
            count += 1;
        }
        if m.executed() != target {
            return Err(TuiError::InsideStep { at });
        }
        Ok(ScriptStep {
            target: StepTarget::Symbol(at),
            count,
            variant,
            say: String::new(),
            highlight: None,
        })
    }
}

/// The recorded steps as `[[script]]` sections.
fn script_toml(s: &AppState, r: &Recorder) -> String {
    let q = |x: &str| toml::Value::String(x.to_string()).to_string();
    let from = if s.scenario.start_at.is_some() {
        "its start_at"
    } else {
        "power-on"
    };
    let mut out = format!(
        "# A lesson of {} steps recorded in the TUI (`trapscope SCENARIO`) with :record, for\n# {}: replace its [[script]] sections with these. They replay from\n# {from} (Space in the TUI, `trapscope run --script`).\n",
        r.steps.len(),
        s.scenario.path.display()
    );
    for rec in &r.steps {
        let st = &rec.step;
        out.push_str("\n[[script]]\n");
        match &st.target {
            StepTarget::Symbol(at) => out.push_str(&format!("until = {}\n", q(at))),
            StepTarget::Event(k) => out.push_str(&format!("event = {}\n", q(k.name()))),
        }
        if st.count != 1 {
            out.push_str(&format!("count = {}\n", st.count));
        }
        if let Some(v) = &st.variant {
            out.push_str(&format!("variant = {}\n", q(v)));
        }
        out.push_str(&format!("say = {}\n", q(&st.say)));
    }
    out
}
