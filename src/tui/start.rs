//! Where the TUI opens and `r` returns (docs/tui.md, "Where the TUI opens"),
//! in this order: the scenario's `start_at`; else where the lesson's
//! first step arrives; else the first instruction of the first timed
//! iteration; else the entry. The machine runs there from power-on, so the
//! start is exactly what stepping would reach. `R` resets to power-on.

use super::TuiError;
use super::script::play_step;
pub use super::state::Rule;
use super::state::{AppState, Live, Pane};
use crate::machine::{Machine, Outcome, Until};
use crate::session::checkpoint::Checkpoints;
use crate::session::{self, stats::Stats};

/// Where the start is, once found.
struct StartAt {
    rule: Rule,
    variant: usize,
    what: String,
}

/// The start, found on a fresh machine that is already there.
pub struct Start {
    pub rule: Rule,
    pub variant: usize,
    pub machine: Machine<Stats>,
    /// Its checkpoints, the first at power-on.
    pub cps: Option<Checkpoints>,
    /// In words, for the status line.
    pub what: String,
}

impl AppState {
    /// Runs a fresh machine to the start (see the module doc).
    pub fn find_start(&self) -> Result<Start, TuiError> {
        let sc = &self.scenario;
        let budget = sc.budget;
        let opts = self.opts();
        if let Some(at) = &sc.start_at {
            let mut m = session::build_machine(sc, &sc.variants[0], &opts)?;
            let cps = Checkpoints::for_machine(&mut m).ok();
            let a = m.program.locate(&at.location)?;
            // Power-on at the location is its first arrival.
            let mut seen = u64::from(m.pc() == a);
            while seen < at.count {
                let o = m.run(&Until {
                    max_insns: Some(budget),
                    addrs: vec![a],
                    kinds: vec![],
                });
                if o != Outcome::ReachedAddr(a) {
                    return Err(TuiError::StartAtMissed {
                        location: at.location.clone(),
                        count: at.count,
                        seen,
                        end: session::describe_outcome(&o, &m, budget).0,
                    });
                }
                seen += 1;
            }
            let what = format!("start_at {}", at.location);
            return Ok(Start {
                rule: Rule::StartAt,
                variant: 0,
                machine: m,
                cps,
                what,
            });
        }
        if let Some(step) = sc.script.first() {
            let v = step
                .variant
                .as_ref()
                .and_then(|n| sc.variants.iter().position(|x| &x.name == n))
                .unwrap_or(0);
            let mut m = session::build_machine(sc, &sc.variants[v], &opts)?;
            let cps = Checkpoints::for_machine(&mut m).ok();
            let o = play_step(&mut m, step, super::update::RUN_BUDGET)?;
            if !super::script::reached(&m, step, &o) {
                return Err(TuiError::FirstStepMissed {
                    end: session::describe_outcome(&o, &m, budget).0,
                });
            }
            return Ok(Start {
                rule: Rule::FirstStep,
                variant: v,
                machine: m,
                cps,
                what: "the lesson's first step".into(),
            });
        }
        let mut m = session::build_machine(sc, &sc.variants[0], &opts)?;
        let mut cps = Checkpoints::for_machine(&mut m).ok();
        if let Some(me) = &sc.measure
            && let Some(iter) = m.program.symbol(&me.iteration).map(|s| s.addr)
        {
            let start = me
                .start
                .as_ref()
                .and_then(|s| m.program.symbol(s))
                .map(|s| s.addr);
            // The first execution of the iteration marker that the window
            // counts (`Stats::mark`): with the window open (or opening at
            // this very instruction), or the warm-up's last + 1.
            let timed = |m: &Machine<Stats>| {
                let st = m.observer();
                match me.count {
                    Some((warmup, _)) => st.iteration_hits == warmup,
                    None => {
                        st.window_end.is_none()
                            && (st.window_start.is_some() || start == Some(iter))
                    }
                }
            };
            let mut found = m.pc() == iter && timed(&m);
            while !found {
                let o = m.run(&Until {
                    max_insns: Some(budget),
                    addrs: vec![iter],
                    kinds: vec![],
                });
                if o != Outcome::ReachedAddr(iter) {
                    break;
                }
                found = timed(&m);
            }
            if found {
                return Ok(Start {
                    rule: Rule::FirstIteration,
                    variant: 0,
                    machine: m,
                    cps,
                    what: format!("the first timed iteration ({})", me.iteration),
                });
            }
            m = session::build_machine(sc, &sc.variants[0], &opts)?;
            cps = Checkpoints::for_machine(&mut m).ok();
        }
        Ok(Start {
            rule: Rule::Entry,
            variant: 0,
            machine: m,
            cps,
            what: "the entry".into(),
        })
    }

    /// Goes to the start (`r`, and where the TUI opens); the lesson is
    /// rewound to match.
    pub fn go_to_start(&mut self) {
        // Found once per build of the machines; after that the start is a
        // count the checkpoints go to.
        let found = match self.start_found.clone() {
            Some(f) => Ok(f),
            None => self.find_start().map(|st| {
                let f = (st.rule, st.variant, st.machine.executed(), st.what.clone());
                self.start_found = Some(f.clone());
                if self.live.variant != st.variant || self.live.cps.is_none() {
                    let prev = self.live.regs;
                    self.adopt_with(st.variant, st.machine, prev, st.cps);
                }
                f
            }),
        };
        match found {
            Ok((rule, variant, at, what)) => {
                let st = StartAt {
                    rule,
                    variant,
                    what,
                };
                if self.live.variant != st.variant {
                    self.switch_variant(st.variant);
                }
                if self.live.executed() != at {
                    self.go_to(at);
                }
                self.source_scroll = 0;
                self.events_scroll = 0;
                self.live.outcome = None;
                self.message = None;
                self.update_narration();
                self.player.next = 0;
                self.player.elsewhere = false;
                self.player.active = false;
                self.highlight = None;
                let pc = self.live.program().describe(self.live.m.pc());
                let n = self.live.executed();
                if st.rule == Rule::FirstStep {
                    self.player.next = 1;
                    self.player.active = true;
                    let step = self.player.steps[0].clone();
                    self.highlight = step.highlight.as_deref().and_then(Pane::parse);
                    self.set_narration(step.say.clone());
                    self.say(format!(
                        "at the lesson's start, {pc} after {n} instructions: step 1/{} (Space: next · R: power-on)",
                        self.player.steps.len()
                    ));
                } else {
                    let lesson = if self.player.steps.is_empty() {
                        String::new()
                    } else {
                        format!(" (Space: lesson step 1/{})", self.player.steps.len())
                    };
                    self.say(format!(
                        "at {}: {pc} after {n} instructions{lesson} · R: power-on",
                        st.what
                    ));
                }
            }
            Err(e) => {
                self.go_to(0);
                self.error(format!("cannot reach the start: {e}; at power-on"));
            }
        }
    }

    /// `r`: the start, on the variant on screen. The start is found on one
    /// variant (the first, or the one the lesson's first step names); on
    /// another, `r` goes there and Tab maps it back to this one. A lesson
    /// plays on its own variant, so it is not rewound here: the line says
    /// where it plays.
    pub fn restart_here(&mut self) {
        let stay = self.live.variant;
        self.go_to_start();
        if self.live.variant == stay || self.message.as_ref().is_some_and(|m| m.1) {
            return;
        }
        let (start_variant, lesson) = (self.variant_name().to_string(), self.player.active);
        let what = self
            .start_found
            .as_ref()
            .map(|f| f.3.clone())
            .unwrap_or_else(|| "the start".into());
        self.switch_variant(stay);
        if self.live.variant != stay || self.message.as_ref().is_some_and(|m| m.1) {
            return;
        }
        // Tab keeps the round: a Tab from here goes by the mapping again.
        self.tab_back = None;
        let pc = self.live.program().describe(self.live.m.pc());
        let n = self.live.executed();
        let name = self.variant_name().to_string();
        let tail = if lesson {
            self.player.next = 0;
            self.player.active = false;
            self.player.elsewhere = true;
            self.highlight = None;
            self.update_narration();
            format!("; the lesson plays on {start_variant}: Space begins it there")
        } else {
            " · R: power-on".to_string()
        };
        self.say(format!(
            "at {what} on variant {name} (found on {start_variant}, mapped by Tab): {pc} after {n} instructions{tail}"
        ));
    }

    /// `R`: back to power-on, the lesson with it.
    pub fn reset_power_on(&mut self) {
        self.go_to(0);
        if self.message.as_ref().is_some_and(|m| m.1) {
            return;
        }
        self.source_scroll = 0;
        self.events_scroll = 0;
        self.live.outcome = None;
        self.player.next = 0;
        self.player.active = false;
        self.player.elsewhere = false;
        self.highlight = None;
        self.update_narration();
        self.say("power-on (r goes to the lesson's start)");
    }

    /// Where a replay of the lesson begins: the scenario's `start_at`, else
    /// power-on (a lesson's first step is played from there).
    pub fn go_to_origin(&mut self) -> Result<(), TuiError> {
        if self.scenario.start_at.is_some() {
            let st = self.find_start()?;
            let prev = self.live.regs;
            self.adopt_with(st.variant, st.machine, prev, st.cps);
        } else if self.live.executed() != 0 || self.live.variant != 0 {
            let m =
                session::build_machine(&self.scenario, &self.scenario.variants[0], &self.opts())?;
            let prev = self.live.regs;
            self.adopt(0, m, prev);
        }
        self.player.next = 0;
        self.player.active = false;
        Ok(())
    }

    /// Puts `m` (of variant `v`) on screen.
    fn adopt(&mut self, v: usize, m: Machine<Stats>, prev: [u64; 32]) {
        self.live = Live::from_machine(v, m, prev);
        self.adopted();
    }

    /// Puts `m` (of variant `v`) on screen with its checkpoints.
    fn adopt_with(
        &mut self,
        v: usize,
        m: Machine<Stats>,
        prev: [u64; 32],
        cps: Option<Checkpoints>,
    ) {
        self.live = Live::with_checkpoints(v, m, prev, cps);
        self.adopted();
    }

    fn adopted(&mut self) {
        self.sync_sources();
        self.source_scroll = 0;
        self.events_scroll = 0;
        self.live.outcome = None;
        self.message = None;
        self.update_narration();
    }
}
