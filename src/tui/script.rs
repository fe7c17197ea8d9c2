//! Playing a scenario's `[[script]]` without a terminal (`trapscope run
//! --script`), to check that a lesson still plays.

use std::rc::Rc;

use super::state::AppState;
use super::update::Action;
use crate::cost::Profile;
use crate::machine::Outcome;
use crate::scenario::{Scenario, StepTarget};

/// What one step reached.
#[derive(Debug)]
pub struct StepReport {
    pub index: usize,
    pub ok: bool,
    pub variant: String,
    pub position: String,
    pub instructions: u64,
    pub say: String,
}

pub fn replay(scenario: Scenario, core: Option<Rc<Profile>>) -> Result<Vec<StepReport>, String> {
    if scenario.script.is_empty() {
        return Err(format!(
            "{} has no [[script]] steps",
            scenario.path.display()
        ));
    }
    let mut s = AppState::new(Rc::new(scenario), core)?;
    let mut out = Vec::new();
    for (i, step) in s.player.steps.clone().iter().enumerate() {
        s.update(Action::Advance);
        let ok = match (&step.target, &s.live.outcome) {
            (StepTarget::Symbol(name), Some(Outcome::ReachedAddr(a))) => {
                s.live.program().symbol(name).is_some_and(|x| x.addr == *a)
            }
            (StepTarget::Event(k), Some(Outcome::ReachedEvent(got))) => k == got,
            _ => false,
        };
        out.push(StepReport {
            index: i + 1,
            ok,
            variant: s.variant_name().to_string(),
            position: s.live.program().describe(s.live.m.pc()),
            instructions: s.live.executed(),
            say: step.say.clone(),
        });
    }
    Ok(out)
}
