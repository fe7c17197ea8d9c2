//! A variant's run as a timeline, for the exports (`run --events --format
//! json|csv`, `run --format perfetto`): every event with the instruction
//! count and the modelled cycle it happened at and the privilege it
//! happened in, the phase of each stretch of instructions, the iteration
//! marks, and the RAS's depth after each change.
//!
//! The run is single-stepped (the same events and cycles as by blocks,
//! which tests/cli/cycles.rs checks), so each event is stamped where the
//! instruction it belongs to began: the cycle a stamp gives is the same in
//! block mode and when stepping, and no hot path of the observer changes.

use std::rc::Rc;

use super::{RunOpts, build_machine, describe_outcome};
use crate::cost::{Cat, MILLI, Profile};
use crate::machine::Outcome;
use crate::scenario::{Scenario, Variant};
use crate::trace::{Event, EventKind, Priv};

/// A moment of the run: instructions executed, and modelled milli-cycles
/// charged by then (none without a core).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub insns: u64,
    pub milli: Option<u64>,
}

impl Point {
    /// Modelled cycles, when there is a core.
    pub fn cycles(&self) -> Option<f64> {
        self.milli.map(|m| m as f64 / MILLI as f64)
    }
}

/// One event as the exports give it.
#[derive(Clone, Debug)]
pub struct TimedEvent {
    /// Its position among the exported (non-retired) events, from 0.
    pub index: u64,
    /// Instructions executed before it (`Stamped::at`) and the cycles
    /// charged when the count first reached that number.
    pub at: Point,
    /// The privilege the hart ran in when it happened.
    pub priv_: Priv,
    pub event: Event,
}

/// A stretch of instructions in one phase, from its first instruction to
/// the first of the next phase (a trap's entry cost falls in the handler's).
#[derive(Clone, Debug)]
pub struct PhaseSpan {
    pub phase: String,
    pub start: Point,
    pub end: Point,
}

/// An execution of the measured loop's iteration marker.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    pub at: Point,
    /// Inside the measured window (false: a warm-up iteration).
    pub timed: bool,
}

pub struct Timeline {
    pub variant: String,
    pub label: String,
    /// The core whose clock the cycles follow (none: instructions only).
    pub core: Option<Rc<Profile>>,
    pub events: Vec<TimedEvent>,
    pub phases: Vec<PhaseSpan>,
    pub marks: Vec<Mark>,
    /// Where the measured window closed, if it did.
    pub window_end: Option<Point>,
    /// The RAS's valid entries after each change (with a core).
    pub ras: Vec<(Point, usize)>,
    /// Where the run ended.
    pub end: Point,
    /// "exited", "budget", "fault", ... (`describe_outcome`).
    pub outcome: &'static str,
    pub exit_code: Option<u64>,
    pub error: Option<String>,
}

/// Runs `variant` one instruction at a time and records its timeline.
pub fn record(
    scenario: &Scenario,
    variant: &Variant,
    opts: &RunOpts,
) -> Result<Timeline, super::SessionError> {
    scenario.check_set(&opts.set)?;
    // Each step logs a few events; they are read off after every step.
    let opts = RunOpts {
        log_events: 4096,
        single_step: true,
        ..opts.clone()
    };
    let mut m = build_machine(scenario, variant, &opts)?;
    let budget = opts.budget.unwrap_or(scenario.budget);
    let core = m.observer().model.as_ref().map(|c| c.profile.clone());
    let milli = |m: &crate::machine::Machine<super::stats::Stats>| {
        let s = m.observer();
        s.model.as_ref().map(|_| s.now.cycles.iter().sum::<u64>())
    };
    let names = m.observer().map.names.clone();
    let mut t = Timeline {
        variant: variant.name.clone(),
        label: variant.label.clone(),
        core,
        events: Vec::new(),
        phases: Vec::new(),
        marks: Vec::new(),
        window_end: None,
        ras: Vec::new(),
        end: Point {
            insns: 0,
            milli: None,
        },
        outcome: "exited",
        exit_code: None,
        error: None,
    };
    let mut seen = m.observer().log.total();
    let mut first = Point {
        insns: m.executed(),
        milli: milli(&m),
    };
    let mut counts = m.observer().now.phase.clone();
    let mut open: Option<(usize, Point)> = None;
    let mut hits = m.observer().iteration_hits;
    let mut depth = 0usize;
    let mut priv_ = m.priv_();
    let entries = |m: &crate::machine::Machine<super::stats::Stats>| {
        m.observer().now.ledger.milli(Cat::TrapEntries)
    };
    let outcome = loop {
        if m.executed() >= budget {
            break Outcome::Budget;
        }
        let before = entries(&m);
        let o = m.step();
        let mut now = Point {
            insns: m.executed(),
            milli: milli(&m),
        };
        // A step that took a trap charged its entry last: what follows it
        // (the event, the handler's first instruction) starts before that
        // cost, which belongs to the handler's phase as in `Stats`.
        let entry = entries(&m) - before;
        if entry > 0 {
            now.milli = now.milli.map(|c| c - entry);
        }
        let s = m.observer();
        for (_, e) in s.log.since(seen) {
            if e.event.kind() == EventKind::Retired {
                continue;
            }
            let at = Point {
                insns: e.at,
                milli: if e.at <= first.insns {
                    first.milli
                } else {
                    now.milli
                },
            };
            t.events.push(TimedEvent {
                index: t.events.len() as u64,
                at,
                priv_,
                event: e.event.clone(),
            });
        }
        seen = s.log.total();
        // The phase of the instruction that retired, if one did.
        if let Some(p) = s.now.phase.iter().zip(&counts).position(|(a, b)| a != b) {
            if open.is_none_or(|(q, _)| q != p) {
                if let Some((q, start)) = open {
                    t.phases.push(PhaseSpan {
                        phase: names[q].clone(),
                        start,
                        end: first,
                    });
                }
                open = Some((p, first));
            }
            counts.clone_from(&s.now.phase);
        }
        if s.iteration_hits != hits {
            hits = s.iteration_hits;
            t.marks.push(Mark {
                at: first,
                timed: s.window_start.is_some() && s.window_end.is_none(),
            });
        }
        if t.window_end.is_none() && s.window_end.is_some() {
            // It closes before the end marker's instruction is charged.
            t.window_end = Some(first);
        }
        if let Some(c) = s.model.as_ref() {
            let d = c.pred.ras.entries().len();
            if d != depth || t.ras.is_empty() {
                depth = d;
                t.ras.push((now, d));
            }
        }
        priv_ = m.priv_();
        if now.insns != first.insns {
            first = now;
        }
        if o != Outcome::Stepped {
            break o;
        }
    };
    if outcome == Outcome::Budget {
        m.note_budget_exhausted();
    }
    let end = Point {
        insns: m.executed(),
        milli: milli(&m),
    };
    // The note of an exhausted budget is an event too.
    for (_, e) in m.observer().log.since(seen) {
        if e.event.kind() != EventKind::Retired {
            t.events.push(TimedEvent {
                index: t.events.len() as u64,
                at: end,
                priv_,
                event: e.event.clone(),
            });
        }
    }
    if let Some((q, start)) = open {
        t.phases.push(PhaseSpan {
            phase: names[q].clone(),
            start,
            end,
        });
    }
    let (name, code, error) = describe_outcome(&outcome, &m, budget);
    t.end = end;
    t.outcome = name;
    t.exit_code = code;
    t.error = error;
    Ok(t)
}
