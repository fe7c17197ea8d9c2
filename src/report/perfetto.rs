//! `run --format perfetto`: the variants' timelines as Chrome / Perfetto
//! trace-event JSON (the "Trace Event Format": an object whose
//! `traceEvents` are complete slices `X`, instants `i`, counters `C` and
//! metadata `M`), for ui.perfetto.dev or chrome://tracing.
//!
//! One process per variant (named after it, sorted in scenario order, so
//! before and after sit one above the other). Its threads: the iterations
//! with the phases inside them as nested slices, the traps and interrupts
//! (and xRETs) as instants, and the other events as instants. Counters:
//! modelled cycles per iteration and the RAS's depth.
//!
//! `ts` is modelled time in microseconds (the format's unit), from each
//! variant's cycles at its core's clock, to the picosecond; without a core
//! it is the instruction count. `otherData.time` and each process's label
//! say which.

use serde_json::{Value, json};

use super::events::{event_text, kind_name};
use crate::machine::Program;
use crate::scenario::Scenario;
use crate::session::timeline::{Point, Timeline};
use crate::trace::{Event, cause_name};

/// The threads of each process.
const TID_PHASES: u64 = 1;
const TID_TRAPS: u64 = 2;
const TID_EVENTS: u64 = 3;

/// How a variant's points become `ts`: picoseconds from modelled cycles at
/// the core's clock, or the instruction count.
#[derive(Clone, Copy)]
enum Clock {
    /// milli-cycles per picosecond's worth: ps = milli / ghz.
    Core(f64),
    Insns,
}

impl Clock {
    /// A point on an integer axis: picoseconds, or instructions.
    fn tick(self, p: Point) -> u64 {
        match (self, p.milli) {
            (Clock::Core(ghz), Some(m)) => (m as f64 / ghz).round() as u64,
            _ => p.insns,
        }
    }

    /// An axis value as `ts` (microseconds, or instructions).
    fn ts(self, t: u64) -> Value {
        match self {
            Clock::Core(_) => json!(t as f64 / 1e6),
            Clock::Insns => json!(t),
        }
    }

    fn what(self, t: &Timeline) -> String {
        match (self, &t.core) {
            (Clock::Core(ghz), Some(c)) => format!(
                "ts: modelled time in µs, from modelled cycles on {} at {ghz} GHz",
                c.name
            ),
            _ => "ts: instructions executed (no core: no modelled time)".into(),
        }
    }
}

fn clock_of(t: &Timeline) -> Clock {
    match &t.core {
        Some(c) if c.core.clock_ghz.value > 0.0 => Clock::Core(c.core.clock_ghz.value),
        _ => Clock::Insns,
    }
}

fn meta(pid: u64, tid: u64, name: &str, args: Value) -> Value {
    json!({"name": name, "ph": "M", "ts": 0, "pid": pid, "tid": tid, "args": args})
}

/// A stretch of the top track: a name and its two ends (axis values).
struct Segment {
    name: String,
    start: u64,
    end: u64,
    timed: bool,
    /// Modelled cycles from its start to its end (with a core).
    cycles: Option<f64>,
}

fn cycles_between(a: Point, b: Point) -> Option<f64> {
    Some((b.milli?.saturating_sub(a.milli?)) as f64 / crate::cost::MILLI as f64)
}

/// The top track's segments: before the loop, each iteration (warm-up ones
/// said so), after it; the whole run when there is no loop.
fn segments(t: &Timeline, c: Clock) -> Vec<Segment> {
    let zero = Point {
        insns: 0,
        milli: t.end.milli.map(|_| 0),
    };
    let start = c.tick(zero);
    let end = c.tick(t.end);
    if t.marks.is_empty() {
        return vec![Segment {
            name: "the run (no measured loop)".into(),
            start,
            end,
            timed: false,
            cycles: cycles_between(zero, t.end),
        }];
    }
    let mut out = Vec::new();
    let first = c.tick(t.marks[0].at);
    if first > start {
        out.push(Segment {
            name: "before the loop".into(),
            start,
            end: first,
            timed: false,
            cycles: cycles_between(zero, t.marks[0].at),
        });
    }
    let close = t.window_end.unwrap_or(t.end);
    let mut timed = 0;
    for (k, m) in t.marks.iter().enumerate() {
        let a = c.tick(m.at);
        let next = t.marks.get(k + 1).map_or(close, |n| n.at);
        let b = c.tick(next).max(a);
        let name = if m.timed {
            timed += 1;
            format!("iteration {timed}")
        } else {
            format!("warm-up iteration {}", k + 1)
        };
        out.push(Segment {
            name,
            start: a,
            end: b,
            timed: m.timed,
            cycles: cycles_between(m.at, next),
        });
    }
    let last = out.last().map_or(start, |s| s.end);
    if end > last {
        out.push(Segment {
            name: "after the loop".into(),
            start: last,
            end,
            timed: false,
            cycles: cycles_between(close, t.end),
        });
    }
    out
}

fn slice(pid: u64, name: &str, cat: &str, a: u64, b: u64, c: Clock, args: Value) -> Value {
    let dur = match c {
        Clock::Core(_) => json!((b - a) as f64 / 1e6),
        Clock::Insns => json!(b - a),
    };
    json!({"name": name, "cat": cat, "ph": "X", "ts": c.ts(a), "dur": dur,
           "pid": pid, "tid": TID_PHASES, "args": args})
}

fn instant(pid: u64, tid: u64, name: &str, cat: &str, ts: Value, args: Value) -> Value {
    json!({"name": name, "cat": cat, "ph": "i", "s": "t", "ts": ts, "pid": pid, "tid": tid, "args": args})
}

fn counter(pid: u64, name: &str, ts: Value, key: &str, v: Value) -> Value {
    json!({"name": name, "ph": "C", "ts": ts, "pid": pid, "tid": TID_PHASES, "args": {key: v}})
}

/// One variant's trace events.
fn process(out: &mut Vec<Value>, pid: u64, p: &Program, t: &Timeline) {
    let c = clock_of(t);
    let name = if t.label.is_empty() {
        t.variant.clone()
    } else {
        format!("{} ({})", t.variant, t.label)
    };
    out.push(meta(pid, 0, "process_name", json!({"name": name})));
    out.push(meta(
        pid,
        0,
        "process_sort_index",
        json!({"sort_index": pid}),
    ));
    out.push(meta(pid, 0, "process_labels", json!({"labels": c.what(t)})));
    for (tid, n) in [
        (TID_PHASES, "iterations and phases"),
        (TID_TRAPS, "traps, interrupts and xRETs"),
        (TID_EVENTS, "other events"),
    ] {
        out.push(meta(pid, tid, "thread_name", json!({"name": n})));
        out.push(meta(
            pid,
            tid,
            "thread_sort_index",
            json!({"sort_index": tid}),
        ));
    }
    let segs = segments(t, c);
    let mut cuts: Vec<u64> = segs.iter().flat_map(|s| [s.start, s.end]).collect();
    cuts.sort_unstable();
    cuts.dedup();
    for s in &segs {
        if s.end > s.start {
            let kind = if s.timed { "timed" } else { "untimed" };
            out.push(slice(
                pid,
                &s.name,
                "iteration",
                s.start,
                s.end,
                c,
                json!({"counted": kind}),
            ));
        }
    }
    // Phases, cut where a segment begins or ends so each nests in one.
    for ph in &t.phases {
        let (a, b) = (c.tick(ph.start), c.tick(ph.end));
        let mut from = a;
        for &x in cuts.iter().filter(|x| **x > a && **x < b).chain([&b]) {
            if x > from {
                let args = json!({"instructions": ph.end.insns - ph.start.insns});
                out.push(slice(pid, &ph.phase, "phase", from, x, c, args));
            }
            from = x;
        }
    }
    // Cycles per iteration, held from each iteration's start.
    if matches!(c, Clock::Core(_)) {
        for s in segs.iter().filter(|s| s.name.contains("iteration")) {
            let Some(v) = s.cycles else { continue };
            out.push(counter(
                pid,
                "cycles per iteration",
                c.ts(s.start),
                "cycles",
                json!(v),
            ));
        }
        for (at, d) in &t.ras {
            out.push(counter(
                pid,
                "RAS depth",
                c.ts(c.tick(*at)),
                "entries",
                json!(d),
            ));
        }
    }
    for e in &t.events {
        let ts = c.ts(c.tick(e.at));
        let mut args = json!({
            "instructions": e.at.insns,
            "privilege": e.priv_.letter().to_string(),
            "text": event_text(p, &e.event),
        });
        if let Some(cy) = e.at.cycles() {
            args["cycle"] = json!(cy);
        }
        match &e.event {
            Event::TrapEnter { cause, .. } => {
                let kind = kind_name(&e.event);
                out.push(instant(pid, TID_TRAPS, cause_name(*cause), kind, ts, args));
            }
            Event::TrapReturn { via, .. } => {
                let n = format!("{via:?}").to_lowercase();
                out.push(instant(pid, TID_TRAPS, &n, "trap-return", ts, args));
            }
            ev => {
                let kind = kind_name(ev);
                out.push(instant(pid, TID_EVENTS, kind, kind, ts, args));
            }
        }
    }
}

/// The trace: `{traceEvents, displayTimeUnit, otherData}`.
pub fn trace(s: &Scenario, runs: &[(&Program, &Timeline)]) -> String {
    let mut events = Vec::new();
    for (i, (p, t)) in runs.iter().enumerate() {
        process(&mut events, i as u64 + 1, p, t);
    }
    let time: Vec<Value> = runs
        .iter()
        .map(|(_, t)| json!({"variant": t.variant, "time": clock_of(t).what(t)}))
        .collect();
    let j = json!({
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {
            "scenario": s.path.display().to_string(),
            "title": s.title,
            "patch": s.patch,
            "time": time,
            "generator": "trapscope run --format perfetto",
        },
    });
    let mut o = serde_json::to_string(&j).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    o.push('\n');
    o
}
