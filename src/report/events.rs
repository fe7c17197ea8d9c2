//! Events as lines of text, with symbols.

use crate::isa;
use crate::machine::Program;
use crate::trace::{Event, EventKind, ScOutcome, Stamped, cause_code, cause_name};
use crate::vector::VClass;

fn lmul_name(x8: u32) -> &'static str {
    match x8 {
        1 => "mf8",
        2 => "mf4",
        4 => "mf2",
        8 => "m1",
        16 => "m2",
        32 => "m4",
        _ => "m8",
    }
}

/// `v0-v7` style ranges of a register bitmask.
fn vregs(mask: u32) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < 32 {
        if mask & (1 << i) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < 32 && mask & (1 << i) != 0 {
            i += 1;
        }
        out.push(if i - start == 1 {
            format!("v{start}")
        } else {
            format!("v{start}-v{}", i - 1)
        });
    }
    out.join(",")
}

/// Why an SC succeeded or failed, in words, with symbols.
pub fn sc_text(p: &Program, o: &ScOutcome) -> String {
    o.in_words(&|a| p.offset_place(a))
}

/// The VS/FS field values (priv spec §3.1.6.6).
pub fn vs_name(v: u8) -> &'static str {
    ["Off", "Initial", "Clean", "Dirty"][(v & 3) as usize]
}

/// One event as a line, with symbols.
pub fn event_line(p: &Program, e: &Stamped) -> String {
    format!("{:>10}  {}", e.at, event_text(p, &e.event))
}

/// What an event says, with symbols (symbol names escaped: they come from
/// the guest's ELF).
pub fn event_text(p: &Program, e: &Event) -> String {
    super::escape_line(&event_text_raw(p, e)).into_owned()
}

fn event_text_raw(p: &Program, e: &Event) -> String {
    let sym = |a: u64| p.offset_place(a);
    match e {
        Event::Retired { pc, count, priv_ } => {
            format!("retired   {count} from {} [{}]", sym(*pc), priv_.letter())
        }
        Event::TrapEnter {
            cause,
            from,
            to,
            epc,
            tval,
            handler,
        } => format!(
            "trap      {} ({}) {}->{} epc {} tval {tval:#x} -> {}",
            cause_name(*cause),
            cause_code(*cause),
            from.letter(),
            to.letter(),
            sym(*epc),
            sym(*handler)
        ),
        Event::TrapReturn {
            via,
            from,
            to,
            pc,
            target,
        } => format!(
            "return    {via:?} {}->{} at {} -> {}",
            from.letter(),
            to.letter(),
            sym(*pc),
            sym(*target)
        )
        .to_lowercase(),
        Event::PrivChange { from, to, pc } => {
            format!(
                "priv      {}->{} at {}",
                from.letter(),
                to.letter(),
                sym(*pc)
            )
        }
        Event::CsrWrite { pc, csr, old, new } => {
            let name = isa::csr_name(*csr).map_or(format!("{csr:#x}"), str::to_string);
            let old = old.map_or("?".into(), |v| format!("{v:#x}"));
            format!("csr       {name} {old} -> {new:#x} at {}", sym(*pc))
        }
        Event::Breakpoint { pc } => format!("breakpoint at {}", sym(*pc)),
        Event::Lr { pc, addr, size } => format!(
            "lr        reserves {addr:#x} ({size} bytes) at {}",
            sym(*pc)
        ),
        Event::Sc {
            pc,
            addr,
            outcome,
            retries,
            to_x0,
        } => format!(
            "sc        {} at {} to {addr:#x}{}",
            if *to_x0 && !outcome.ok() {
                format!(
                    "clears the reservation ({}; its result goes to x0, so failing is its purpose)",
                    sc_text(p, outcome)
                )
            } else {
                sc_text(p, outcome)
            },
            sym(*pc),
            if *retries > 0 {
                format!(" ({retries} failures in a row)")
            } else {
                String::new()
            }
        ),
        Event::RemoteStore { addr } => format!("remote    the second hart stores to {addr:#x}"),
        Event::VsChange { from, to, pc, why } => format!(
            "vs        {} -> {} at {}: {why}",
            vs_name(*from),
            vs_name(*to),
            sym(*pc)
        ),
        Event::FsChange { from, to, pc, why } => format!(
            "fs        {} -> {} at {}: {why}",
            vs_name(*from),
            vs_name(*to),
            sym(*pc)
        ),
        Event::Vector {
            pc,
            class,
            written,
            raw,
        } => {
            let text = crate::vector::decode(*raw)
                .map_or_else(|_| format!(".insn 4, {raw:#010x}"), |v| v.to_string());
            let what = match class {
                VClass::Config => "configures vl/vtype".to_string(),
                VClass::Arith { lmul_x8 } => format!("LMUL {}", lmul_name(*lmul_x8)),
                VClass::UnitStride { store, eew, vl } => {
                    format!("{} {vl} x e{eew}", if *store { "stores" } else { "loads" })
                }
                VClass::WholeReg { store, nregs } => {
                    format!(
                        "{} {nregs} registers",
                        if *store { "stores" } else { "loads" }
                    )
                }
                VClass::Scalar => "scalar move".to_string(),
            };
            let regs = if *written == 0 {
                String::new()
            } else {
                format!(", writes {}", vregs(*written))
            };
            format!("vector    {text} at {} ({what}{regs})", sym(*pc))
        }
        Event::GuestFault { fault } => format!("fault     {fault}"),
        Event::BudgetExhausted { executed } => format!("budget    exhausted after {executed}"),
        Event::Exit { code, pc } => format!("exit      code {code} at {}", sym(*pc)),
        Event::Mispredict {
            what,
            pc,
            predicted,
            actual,
        } => format!(
            "mispredict {} at {}: predicted {}, went to {}",
            what.name(),
            sym(*pc),
            predicted.map_or("nothing".into(), sym),
            sym(*actual)
        ),
    }
}

/// The kind an export and the events pane name an event by: its
/// `EventKind` name, except that a trap taken for an interrupt is an
/// "interrupt" (xcause's MSB set, priv spec §3.1.15).
pub fn kind_name(e: &Event) -> &'static str {
    match e {
        Event::TrapEnter { cause, .. } if cause >> 63 == 1 => "interrupt",
        e => e.kind().name(),
    }
}

/// What the events pane shows (`f` cycles through them): everything but
/// retired blocks, one event kind, or the traps taken for interrupts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EventFilter {
    #[default]
    AllButRetired,
    Kind(EventKind),
    Interrupt,
}

impl EventFilter {
    /// Every filter in the order `f` visits them: all, then each kind
    /// (interrupts right after traps), retired blocks last.
    pub fn cycle() -> Vec<EventFilter> {
        let mut v = vec![EventFilter::AllButRetired];
        for k in EventKind::ALL {
            if k == EventKind::Retired {
                continue;
            }
            v.push(EventFilter::Kind(k));
            if k == EventKind::TrapEnter {
                v.push(EventFilter::Interrupt);
            }
        }
        v.push(EventFilter::Kind(EventKind::Retired));
        v
    }

    /// The filter after this one.
    pub fn next(self) -> EventFilter {
        let all = EventFilter::cycle();
        let i = all.iter().position(|f| *f == self).unwrap_or(0);
        all[(i + 1) % all.len()]
    }

    pub fn matches(self, e: &Event) -> bool {
        match self {
            EventFilter::AllButRetired => e.kind() != EventKind::Retired,
            EventFilter::Kind(k) => e.kind() == k,
            EventFilter::Interrupt => kind_name(e) == "interrupt",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            EventFilter::AllButRetired => "all but retired",
            EventFilter::Kind(k) => k.name(),
            EventFilter::Interrupt => "interrupt",
        }
    }
}
