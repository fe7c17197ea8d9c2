//! `run --events --format json|csv`: each variant's events with their
//! index, instruction count, modelled cycle (with a core), privilege, kind
//! and fields, for a spreadsheet or a script.
//!
//! Addresses and CSR values are hex strings ("0x80200040"): a kernel
//! address does not fit a JSON number's 53 bits.

use serde::Serialize;
use serde_json::{Map, Value};

use super::events::{event_text, kind_name};
use crate::machine::Program;
use crate::scenario::Scenario;
use crate::session::timeline::{TimedEvent, Timeline};

/// Field names whose values are addresses or register values.
const HEX: [&str; 13] = [
    "pc",
    "epc",
    "tval",
    "handler",
    "target",
    "addr",
    "predicted",
    "actual",
    "reserved",
    "old",
    "new",
    "cause",
    "csr",
];

/// The text log's line without its column padding ("csr mtvec 0x0 -> ...").
fn text(p: &Program, e: &crate::trace::Event) -> String {
    let t = event_text(p, e);
    match t.split_once(' ') {
        Some((kind, rest)) => format!("{kind} {}", rest.trim_start()),
        None => t,
    }
}

/// The event's own fields (serde's shape of `trace::Event` without its
/// `kind`), addresses as hex strings, nested values too.
pub fn fields(e: &crate::trace::Event) -> Map<String, Value> {
    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
    hexify(&mut v);
    match v {
        Value::Object(mut m) => {
            m.remove("kind");
            m
        }
        _ => Map::new(),
    }
}

fn hexify(v: &mut Value) {
    if let Value::Object(m) = v {
        for (k, x) in m.iter_mut() {
            match x {
                Value::Number(n) if HEX.contains(&k.as_str()) => {
                    if let Some(u) = n.as_u64() {
                        *x = Value::String(format!("{u:#x}"));
                    }
                }
                Value::Object(_) => hexify(x),
                _ => {}
            }
        }
    }
}

/// The modelled cycle as a JSON number (three decimals: the model counts
/// thousandths), or null without a core.
fn cycle(e: &TimedEvent) -> Option<f64> {
    e.at.cycles()
}

#[derive(Serialize)]
struct EventJson {
    index: u64,
    /// Instructions executed before the event.
    instructions: u64,
    /// Modelled cycles charged by then; null without a core.
    cycle: Option<f64>,
    privilege: char,
    kind: &'static str,
    /// The event as the text log says it, with symbols.
    text: String,
    fields: Map<String, Value>,
}

#[derive(Serialize)]
struct VariantJson {
    variant: String,
    core: Option<String>,
    clock_ghz: Option<f64>,
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    events: Vec<EventJson>,
}

#[derive(Serialize)]
struct EventsJson<'a> {
    scenario: String,
    title: &'a str,
    /// What the stamps mean.
    stamps: &'static str,
    variants: Vec<VariantJson>,
}

const STAMPS: &str = "instructions: instructions executed before the event; cycle: modelled cycles charged when the instruction count first reached that number, on the variant's core (null without one); privilege: the mode the hart ran in when it happened";

/// One JSON object: `{scenario, title, stamps, variants: [{variant, core,
/// clock_ghz, outcome, events: [...]}]}`.
pub fn json(s: &Scenario, runs: &[(&Program, &Timeline)]) -> String {
    let variants = runs
        .iter()
        .map(|(p, t)| VariantJson {
            variant: t.variant.clone(),
            core: t.core.as_ref().map(|c| c.name.clone()),
            clock_ghz: t.core.as_ref().map(|c| c.core.clock_ghz.value),
            outcome: t.outcome,
            error: t.error.clone(),
            events: t
                .events
                .iter()
                .map(|e| EventJson {
                    index: e.index,
                    instructions: e.at.insns,
                    cycle: cycle(e),
                    privilege: e.priv_.letter(),
                    kind: kind_name(&e.event),
                    text: text(p, &e.event),
                    fields: fields(&e.event),
                })
                .collect(),
        })
        .collect();
    let j = EventsJson {
        scenario: s.path.display().to_string(),
        title: &s.title,
        stamps: STAMPS,
        variants,
    };
    let mut o =
        serde_json::to_string_pretty(&j).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    o.push('\n');
    o
}

/// A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line
/// break, quotes doubled.
pub fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A field's value as a CSV cell shows it: strings bare, the rest as JSON.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{k}:{}", plain(v)))
            .collect::<Vec<_>>()
            .join("/"),
        v => v.to_string(),
    }
}

pub const CSV_HEADER: &str = "variant,index,instructions,cycle,privilege,kind,fields,text";

/// A header row, then one row per event of each variant; `fields` is
/// `name=value` pairs separated by spaces.
pub fn csv(runs: &[(&Program, &Timeline)]) -> String {
    let mut o = String::from(CSV_HEADER);
    o.push('\n');
    for (p, t) in runs {
        for e in &t.events {
            let f: Vec<String> = fields(&e.event)
                .iter()
                .map(|(k, v)| format!("{k}={}", plain(v)))
                .collect();
            let cells = [
                t.variant.clone(),
                e.index.to_string(),
                e.at.insns.to_string(),
                e.at.milli.map_or(String::new(), |m| {
                    format!("{}.{:03}", m / crate::cost::MILLI, m % crate::cost::MILLI)
                }),
                e.priv_.letter().to_string(),
                kind_name(&e.event).to_string(),
                f.join(" "),
                text(p, &e.event),
            ];
            let row: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
            o.push_str(&row.join(","));
            o.push('\n');
        }
    }
    o
}
