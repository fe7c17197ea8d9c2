//! What the checkpoint tests compare: a machine's whole state as text, so
//! that a difference names what differs.

use std::collections::BTreeMap;

use trapscope::machine::Machine;
use trapscope::session::stats::Stats;
use trapscope::trace::{Event, EventKind};

/// xorshift64*: a seeded sequence, no crate needed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

pub fn seed() -> u64 {
    std::env::var("TRAPSCOPE_CHECKPOINT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x7ca9_5c09_e14a_11d3)
}

/// Everything compared, as text, so a difference prints what differs.
pub fn state(m: &mut Machine<Stats>) -> BTreeMap<String, String> {
    let mut s = BTreeMap::new();
    s.insert("executed".into(), m.executed().to_string());
    s.insert("pc".into(), format!("{:#x}", m.pc()));
    s.insert("priv".into(), format!("{:?}", m.priv_()));
    s.insert("gprs".into(), format!("{:x?}", m.gprs()));
    for csr in trapscope::machine::regs::KNOWN_CSRS {
        s.insert(format!("csr {csr:#x}"), format!("{:?}", m.csr(csr)));
    }
    s.insert("fp".into(), format!("{:?}", m.fp_state()));
    s.insert("vs".into(), m.vs().to_string());
    s.insert("vunit".into(), format!("{:?}", m.vunit()));
    s.insert("mip".into(), format!("{:#x}", m.mip()));
    s.insert("uart".into(), format!("{:?}", m.uart_output()));
    let t = m.lrsc();
    let failures: BTreeMap<_, _> = t.failures.iter().collect();
    s.insert(
        "lrsc".into(),
        format!(
            "{:?} {:?} {failures:?} {} {} {} {} {} {}",
            t.current,
            t.lost,
            t.lrs(),
            t.successes,
            t.fails,
            t.max_retries,
            t.max_fail_run,
            t.unreserved
        ),
    );
    for (start, bytes) in m.ram_contents() {
        // A digest per 4 KiB page, so a difference names its page.
        for (i, page) in bytes.chunks(4096).enumerate() {
            let h = page.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
            });
            s.insert(
                format!("ram {:#x}", start + (i * 4096) as u64),
                format!("{h:x}"),
            );
        }
    }
    let st = m.observer();
    s.insert("counters".into(), format!("{:?}", st.now));
    // The stream reverse-continue searches: the last time at power-on's
    // instruction and at the one about to run.
    let addrs = [m.program.entry, m.pc()].into();
    s.insert(
        "stream".into(),
        format!("{:?}", st.stream.last_hit_before(m.executed(), &addrs)),
    );
    s.insert(
        "window".into(),
        format!("{:?} {:?}", st.window_start, st.window_end),
    );
    s.insert(
        "iterations".into(),
        format!("{} {}", st.iterations, st.iteration_hits),
    );
    s.insert("marks".into(), format!("{:?}", st.iteration_marks));
    s.insert("interrupts".into(), format!("{:?}", st.interrupts));
    s.insert(
        "stack".into(),
        format!(
            "{} {} {} {}",
            st.stack.digest, st.stack.max_depth, st.stack.mismatched, st.stack.dropped
        ),
    );
    s.insert("functions".into(), format!("{:?}", st.functions.window()));
    // Cycles per source line, by line (ids may be numbered apart).
    let lines: BTreeMap<String, u64> = st
        .line_locs
        .iter()
        .zip(&st.lines)
        .filter(|(_, c)| **c > 0)
        .map(|(l, c)| (format!("{l:?}"), *c))
        .collect();
    s.insert("lines".into(), format!("{lines:?}"));
    // Events: every one but the retired blocks, whose grouping is how the
    // run was cut into calls, and the instructions those retired in all.
    let events: Vec<String> = st
        .log
        .iter()
        .filter(|e| e.event.kind() != EventKind::Retired)
        .map(|e| format!("{} {:?}", e.at, e.event))
        .collect();
    // Where the bounded log starts (how many events it dropped depends on
    // the grouping, so the comparison starts where both logs are whole).
    let first = if st.log.dropped() > 0 {
        st.log.iter().next().map_or(0, |e| e.at + 1)
    } else {
        0
    };
    s.insert("events from".into(), first.to_string());
    let retired: u64 = st
        .log
        .iter()
        .map(|e| match e.event {
            Event::Retired { count, .. } => u64::from(count),
            _ => 0,
        })
        .sum();
    s.insert("events".into(), events.join("\n"));
    s.insert("events retired".into(), retired.to_string());
    s
}

pub fn assert_same(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>, what: &str) {
    let (mut a, mut b) = (a.clone(), b.clone());
    let from = |m: &BTreeMap<String, String>| m["events from"].parse::<u64>().unwrap();
    let cut = from(&a).max(from(&b));
    for m in [&mut a, &mut b] {
        m.remove("events from");
        let kept: Vec<&str> = m["events"]
            .lines()
            .filter(|l| l.split(' ').next().unwrap().parse::<u64>().unwrap() >= cut)
            .collect();
        let kept = kept.join("\n");
        m.insert("events".into(), kept);
        if cut > 0 {
            // The retired total counts dropped groups too.
            m.remove("events retired");
        }
    }
    let (a, b) = (&a, &b);
    for (k, v) in a {
        let w = b.get(k).map_or("(missing)", String::as_str);
        assert_eq!(v, w, "{what}: '{k}' differs (fresh run, then restored)");
    }
    assert_eq!(a.len(), b.len(), "{what}: different keys");
}
