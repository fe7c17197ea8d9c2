//! One instruction of a recorded path, resolved for reading: where it is,
//! its source line, its text with targets named, its cycles and events; and
//! the figures' formatting.

use serde::Serialize;

use super::Step;
use crate::cost::{Cat, MILLI};
use crate::machine::Program;

/// One side's instruction, resolved for reading.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    pub pc: u64,
    /// `sym+0xOFF`.
    pub at: String,
    pub function: String,
    /// `file:line` (the file's last path component), if the line table has it.
    pub source: Option<String>,
    /// Disassembly, jump and branch targets named by symbol (`+0xOFF`
    /// alone for a target in the line's own function).
    pub text: String,
    /// Cycles charged (milli).
    pub milli: u64,
    /// Its events: category and cycles (milli).
    pub events: Vec<(Cat, u64)>,
    /// A mispredict's "predicted X, went to Y" (`sym+0xOFF`).
    pub mispredict: Option<String>,
}

/// The categories listed as a line's events.
const EVENT_CATS: [Cat; 10] = [
    Cat::RasMispredicts,
    Cat::BranchMispredicts,
    Cat::IndirectMispredicts,
    Cat::CsrFlushes,
    Cat::Serialisation,
    Cat::TrapEntries,
    Cat::TrapReturns,
    Cat::VectorUnit,
    Cat::TakenBubbles,
    Cat::Idle,
];

impl Line {
    pub fn of(program: &Program, s: &Step) -> Line {
        let text = match crate::isa::decode_word(s.raw) {
            Some(i) => symbolised(program, &i, s.pc),
            None => format!(".insn {:#x}", s.raw),
        };
        let function = program
            .symbol_at(s.pc)
            .map_or_else(|| format!("{:#x}", s.pc), |(sym, _)| sym.name.clone());
        let source = program.loc(s.pc).and_then(|l| {
            let f = program.files.get(l.file as usize)?;
            let base = f.rsplit('/').next().unwrap_or(f);
            Some(format!("{base}:{}", l.line))
        });
        let mut events: Vec<(Cat, u64)> = Vec::new();
        for &(cat, v, ev) in &s.charges {
            if !ev || !EVENT_CATS.contains(&cat) {
                continue;
            }
            events.push((cat, v));
        }
        // A mispredict's wait on an out-of-order core comes later, as cycles
        // of the same category without an event: count it with the event.
        for &(cat, v, ev) in &s.charges {
            if !ev
                && v > 0
                && let Some(e) = events.iter_mut().find(|e| e.0 == cat)
            {
                e.1 += v;
            }
        }
        let mut l = Line {
            pc: s.pc,
            at: program.describe(s.pc),
            function,
            source,
            text,
            milli: s.milli(),
            events,
            mispredict: s.mispredict.map(|(p, a)| {
                let went = program.describe(a);
                match p {
                    Some(p) => format!("predicted {}, went to {went}", program.describe(p)),
                    None => format!("no prediction, went to {went}"),
                }
            }),
        };
        l.text = local_text(&l);
        l
    }
}

/// The disassembly with a jump's or branch's target as `sym+0xOFF`.
fn symbolised(program: &Program, i: &crate::isa::Insn, pc: u64) -> String {
    use crate::isa::Op;
    // Vector instructions through the V unit's decoder, as the TUI's
    // disassembly shows them (the base one knows none).
    let t = crate::vector::disasm(i, pc);
    if !matches!(i.op, Op::Jal | Op::Branch(_)) {
        return t;
    }
    let target = pc.wrapping_add(i.imm as u64);
    let hex = format!("{target:#x}");
    match program.symbol_at(target) {
        Some(_) => t.replace(&hex, &program.describe(target)),
        None => t,
    }
}

/// The instruction text with targets in its own function written
/// `+0xOFF`, so two copies of one function compare equal.
fn local_text(l: &Line) -> String {
    let own = format!("{}+", l.function);
    let t = l.text.replace(&own, "+");
    match t.strip_suffix(&l.function) {
        Some(head) if head.ends_with(' ') => format!("{head}+0x0"),
        _ => t,
    }
}

/// Milli-cycles as cycles: whole when whole, else two decimals.
pub fn cycles(milli: u64) -> String {
    if milli.is_multiple_of(MILLI) {
        format!("{}", milli / MILLI)
    } else {
        format!("{:.2}", milli as f64 / MILLI as f64)
    }
}

/// A signed difference of milli-cycles as cycles, with its sign.
pub fn signed(milli: i64) -> String {
    let s = cycles(milli.unsigned_abs());
    match milli.signum() {
        -1 => format!("-{s}"),
        1 => format!("+{s}"),
        _ => "0".into(),
    }
}

/// A line's events with a mispredict's targets, for the events table:
/// `ras 6 (predicted main+0x32, went to do_trap_ecall_u)`.
pub fn events_detail(l: &Line, with_cycles: bool) -> String {
    let e = events_text(l, with_cycles);
    match &l.mispredict {
        Some(m) => format!("{e} ({m})"),
        None => e,
    }
}

/// A line's events as `ras 5, trap 20`.
pub fn events_text(l: &Line, with_cycles: bool) -> String {
    l.events
        .iter()
        .map(|(c, v)| {
            let name = c.short().unwrap_or(c.key());
            if with_cycles && *v > 0 {
                format!("{name} {}", cycles(*v))
            } else {
                name.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
