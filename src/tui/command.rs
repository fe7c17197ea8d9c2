//! The `:` command line carried out: `break LOCATION` (`SYM`, `SYM+0xOFF`,
//! `FILE:LINE`, `0xADDR`), `delete LOCATION|all`, `run N`, `core NAME`,
//! `variant NAME`, `set KNOB=VALUE`, `goto EVENT`, and the lesson
//! recorder's `record`, `say TEXT`, `save FILE` (`record.rs`). The names and
//! their help are the command table's (`keymap/commands.rs`).

use std::rc::Rc;

use super::keymap::commands::{self, Cmd};
use super::state::AppState;
use crate::cost::Profile;
use crate::machine::Outcome;

impl AppState {
    /// The probes changed: the machine is rebuilt at the same instruction
    /// count and the whole runs behind the cycles pane again, then `msg`.
    fn reprobe(&mut self, msg: String) {
        self.machine_changed();
        let at = self.live.executed();
        self.go_to(at);
        self.compute_summaries();
        self.say(msg);
    }

    pub fn command(&mut self, line: &str) {
        let mut parts = line.split_whitespace();
        let cmd = parts.next().unwrap_or_default();
        let arg = parts.collect::<Vec<_>>().join(" ");
        if cmd.is_empty() {
            return;
        }
        // What the name means is the command table's (`keymap/commands.rs`).
        let Some(c) = commands::find(cmd).map(|c| c.cmd) else {
            return self.error(format!("unknown command ':{line}' (? lists the commands)"));
        };
        match (c, arg.as_str()) {
            // A lesson has no field for these: the steps after one would
            // replay on other settings.
            (Cmd::Probe | Cmd::ProbeAnyway | Cmd::Unprobe | Cmd::Set | Cmd::Core, _)
                if self.recorder.is_some() =>
            {
                self.error(format!(
                    ":{cmd} while recording: a lesson cannot replay it (:record off first)"
                ))
            }
            (Cmd::Break, a) if !a.is_empty() => match self.address(a) {
                Some(addr) => {
                    self.breakpoints.insert(addr);
                    // The name typed, and where it resolved when that is
                    // another name (a label inside a function).
                    let at = self.live.program().describe(addr);
                    let d = if at == a.trim() || a.trim().starts_with("0x") {
                        at
                    } else {
                        format!("{} ({at})", a.trim())
                    };
                    match crate::atomics::checker::probe_allowed(self.live.program(), addr) {
                        Ok(()) => self.say(format!("breakpoint at {d}")),
                        // trapscope's own breakpoints do not trap the guest,
                        // but a kernel's would: say what it would do.
                        Err(why) => self.error(format!(
                            "breakpoint at {d}, but note: {why}. `:probe! {a}` places a guest probe there to show it"
                        )),
                    }
                }
                None => self.error(format!("break: {}", self.why_not(a))),
            },
            (Cmd::Probe | Cmd::ProbeAnyway, a) if !a.is_empty() => match self.address(a) {
                Some(addr) => {
                    let check = crate::atomics::checker::probe_allowed(self.live.program(), addr);
                    match (check, c == Cmd::ProbeAnyway) {
                        (Err(why), false) => self.error(format!(
                            "probe rejected: {why} (`:probe! {a}` to place it anyway)"
                        )),
                        (_, _) => {
                            self.probes.push(addr);
                            let d = self.live.program().describe(addr);
                            self.reprobe(format!(
                                "probe at {d}: the guest traps there before the instruction (:unprobe removes it)"
                            ));
                        }
                    }
                }
                None => self.error(format!("probe: {}", self.why_not(a))),
            },
            (Cmd::Delete, "all") => {
                self.breakpoints.clear();
                let probes = match self.probes.len() {
                    0 => String::new(),
                    n => format!(
                        " ({n} probes stay: they change the guest; :unprobe all removes them)"
                    ),
                };
                self.say(format!("all breakpoints removed{probes}"));
            }
            (Cmd::Unprobe, "all") if !self.probes.is_empty() => {
                let n = self.probes.len();
                self.probes.clear();
                let noun = if n == 1 { "probe" } else { "probes" };
                self.reprobe(format!(
                    "{n} {noun} removed: the guest runs without them again"
                ));
            }
            (Cmd::Unprobe, a) if !a.is_empty() => match self.address(a) {
                Some(addr) if self.probes.contains(&addr) => {
                    self.probes.retain(|&p| p != addr);
                    let d = self.live.program().describe(addr);
                    self.reprobe(format!("probe at {d} removed"));
                }
                _ => self.error(format!("unprobe: no probe at '{a}'")),
            },
            (Cmd::Delete, a) if !a.is_empty() => match self.address(a) {
                Some(addr) if self.breakpoints.remove(&addr) => {
                    self.say(format!("breakpoint at {a} removed"))
                }
                _ => self.error(format!("delete: no breakpoint at '{a}'")),
            },
            (Cmd::Run, n) => match n.replace('_', "").parse::<u64>() {
                Ok(n) => {
                    let target = self.live.executed().saturating_add(n);
                    let mut p = self.progress.take();
                    self.moved(|l| {
                        let mut run = super::update::long::pieces("run", target, &mut p);
                        match l.cps.as_mut() {
                            // Checkpoints on the way, so that going back
                            // from there is short.
                            Some(c) => c
                                .run_to(&mut l.m, target, false, &mut run)
                                .unwrap_or(Outcome::Stepped),
                            None => run(&mut l.m, target),
                        }
                    });
                    self.progress = p;
                }
                Err(_) => self.error("run: give a number of instructions, e.g. run 100"),
            },
            (Cmd::Core, name) if !name.is_empty() => match Profile::find(name) {
                Ok(p) if !has_v(&p) && needs_v(&self.scenario) => {
                    // The guest's vector code would raise illegal-instruction
                    // there and end the run: say so rather than go.
                    let cores: Vec<&str> = self
                        .scenario
                        .cores
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect();
                    self.error(format!(
                        "core {name}: it has no V 1.0 unit, and this scenario's vector code needs one (its cores: {}); staying on this core",
                        cores.join(", ")
                    ))
                }
                Ok(p) => {
                    let place = self.place();
                    let at = self.live.executed();
                    self.core = Some(Rc::new(p));
                    self.machine_changed();
                    // The same place, not the same count: the core's clock
                    // moves the timer interrupts (update/place.rs).
                    use super::update::place::Kept;
                    let kept = place.map_or(Kept::Lost, |pl| self.go_to_place(pl));
                    if kept == Kept::Lost {
                        self.go_to(at);
                    }
                    self.compute_summaries();
                    let here = self.live.program().describe(self.live.m.pc());
                    let (n, k) = (self.live.executed(), self.live.stats().iteration_hits);
                    self.say(match kept {
                        Kept::Place => format!(
                            "core {name}: the same place, {here} (iteration mark {k}), now {n} instructions into the run"
                        ),
                        Kept::Iteration => format!(
                            "core {name}: the start of the same iteration (mark {k}), {here}: this core does not reach the place before as often"
                        ),
                        Kept::Lost => format!(
                            "core {name}: at instruction {at} ({here}); the place before could not be found again"
                        ),
                    });
                }
                Err(e) => self.error(e.to_string()),
            },
            (Cmd::Variant, name) if !name.is_empty() => {
                match self.scenario.variants.iter().position(|v| v.name == name) {
                    Some(i) => self.switch_variant(i),
                    None => {
                        if let Err(e) = self.scenario.variant(name) {
                            self.error(e.to_string());
                        }
                    }
                }
            }
            (Cmd::Set, kv) if kv.contains('=') => {
                let (k, v) = kv.split_once('=').unwrap_or_default();
                let (k, v) = (k.trim(), v.trim().replace('_', ""));
                let value = match v.strip_prefix("0x") {
                    Some(h) => u64::from_str_radix(h, 16),
                    None => v.parse(),
                };
                match (self.scenario.knob(k), value) {
                    (Err(e), _) => self.error(e.to_string()),
                    (_, Err(_)) => self.error(format!("set: '{v}' is not a number")),
                    (Ok(knob), Ok(n)) if let Err(e) = knob.check(n) => {
                        self.error(format!("set: {e}"));
                    }
                    (Ok(_), Ok(n)) => {
                        self.set.retain(|(x, _)| x != k);
                        self.set.push((k.to_string(), n));
                        self.machine_changed();
                        self.go_to(0);
                        self.compute_summaries();
                        self.say(format!("{k} = {n}; restarted"));
                    }
                }
            }
            (Cmd::Goto, n) => match n.trim_start_matches('#').parse::<u64>() {
                Ok(i) => self.goto_event(i),
                Err(_) => self.error("goto: give an event number from the events pane"),
            },
            (Cmd::Examine, a) if !a.is_empty() => self.examine(a),
            (Cmd::Watch, a) if !a.is_empty() => self.watch(a),
            (Cmd::Unwatch, a) if !a.is_empty() => self.unwatch(a),
            (Cmd::Record, "") => self.start_recording(),
            (Cmd::Record, "off") => self.stop_recording(),
            (Cmd::Say, text) if !text.is_empty() => self.record_say(text),
            (Cmd::Say, _) => self.error("say: give the narration, e.g. :say the trap enters here"),
            (Cmd::Save, file) => self.record_save(file),
            _ => self.error(format!("unknown command ':{line}' (? lists the commands)")),
        }
    }

    /// A symbol or a hex address.
    /// `0xADDR`, `SYMBOL`, `SYMBOL+0xOFF` or `file.S:LINE`.
    fn address(&self, a: &str) -> Option<u64> {
        self.live.program().locate(a).ok()
    }

    /// Why `a` names no address (for the status line).
    fn why_not(&self, a: &str) -> String {
        self.live
            .program()
            .locate(a)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }
}

/// Whether a core runs V 1.0 (the V unit's version).
fn has_v(p: &Profile) -> bool {
    p.vector.present.value && p.vector_isa == "v1.0"
}

/// A scenario every one of whose cores has a V 1.0 unit: its guest runs
/// vector code (the others run on cores without V as well).
fn needs_v(s: &crate::scenario::Scenario) -> bool {
    !s.cores.is_empty() && s.cores.iter().all(|c| has_v(c))
}
