//! Playing a scenario's `[[script]]`: one step on a machine (`play_step`,
//! which Space, the start point and the headless replay share), and the
//! whole lesson without a terminal (`trapscope run --script`), to check
//! that a lesson still plays.

use std::rc::Rc;

use super::TuiError;
use super::state::AppState;
use super::update::Action;
use crate::cost::Profile;
use crate::machine::{Machine, Observer, Outcome, Until};
use crate::scenario::{Scenario, ScriptStep, StepTarget};

/// What one step reached.
#[derive(Debug)]
pub struct StepReport {
    pub index: usize,
    pub ok: bool,
    pub variant: String,
    pub position: String,
    pub instructions: u64,
    /// The event log's length there (its next event's index).
    pub events: u64,
    pub say: String,
}

/// Runs `m` to where `step` ends: the `count`-th arrival at its location
/// (an arrival is the hart about to execute it; where the step begins does
/// not count) or the `count`-th event of its kind, at most `budget`
/// instructions. Breakpoints play no part, so a step ends at the same
/// instruction wherever it is played. Returns the last outcome: the
/// target's on success, else what stopped the run.
pub fn play_step<O: Observer + 'static>(
    m: &mut Machine<O>,
    step: &ScriptStep,
    budget: u64,
) -> Result<Outcome, TuiError> {
    play_step_with(m, step, budget, &mut |m: &mut Machine<O>, u: &Until| {
        m.run(u)
    })
}

/// As `play_step`, each run made by `run` (the TUI's runs in pieces).
pub fn play_step_with<O: Observer + 'static>(
    m: &mut Machine<O>,
    step: &ScriptStep,
    budget: u64,
    run: &mut dyn FnMut(&mut Machine<O>, &Until) -> Outcome,
) -> Result<Outcome, TuiError> {
    let (u, want) = match &step.target {
        StepTarget::Symbol(at) => {
            let a = m.program.locate(at).map_err(TuiError::ScriptLocation)?;
            (
                Until {
                    max_insns: Some(budget),
                    addrs: vec![a],
                    kinds: vec![],
                },
                Outcome::ReachedAddr(a),
            )
        }
        StepTarget::Event(k) => (
            Until {
                max_insns: Some(budget),
                addrs: vec![],
                kinds: vec![*k],
            },
            Outcome::ReachedEvent(*k),
        ),
    };
    let mut o = Outcome::Stepped;
    for _ in 0..step.count.max(1) {
        o = run(m, &u);
        if o != want {
            break;
        }
    }
    Ok(o)
}

/// Whether `o` is where `step` was meant to end.
pub fn reached(m: &Machine<impl Observer + 'static>, step: &ScriptStep, o: &Outcome) -> bool {
    match (&step.target, o) {
        (StepTarget::Symbol(at), Outcome::ReachedAddr(a)) => m.program.locate(at) == Ok(*a),
        (StepTarget::Event(k), Outcome::ReachedEvent(got)) => k == got,
        _ => false,
    }
}

/// Plays the lesson from where it begins (the scenario's `start_at`, else
/// power-on), each step as Space plays it.
pub fn replay(scenario: Scenario, core: Option<Rc<Profile>>) -> Result<Vec<StepReport>, TuiError> {
    if scenario.script.is_empty() {
        return Err(TuiError::NoScript {
            scenario: scenario.path,
        });
    }
    let mut s = AppState::new(Rc::new(scenario), core)?;
    s.go_to_origin()?;
    let mut out = Vec::new();
    for (i, step) in s.player.steps.clone().iter().enumerate() {
        s.update(Action::Advance);
        let ok = s.player.next == i + 1
            && s.live
                .outcome
                .as_ref()
                .is_some_and(|o| reached(&s.live.m, step, o));
        out.push(StepReport {
            index: i + 1,
            ok,
            variant: s.variant_name().to_string(),
            position: s.live.program().describe(s.live.m.pc()),
            instructions: s.live.executed(),
            events: s.live.stats().log.total(),
            say: step.say.clone(),
        });
    }
    Ok(out)
}
