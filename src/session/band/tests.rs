//! The band's replay against the run it replays: with the profile's own
//! values it must give the run's window cycles exactly (the tape misses
//! nothing the model was fed), and reusing repeated segments must give
//! what replaying them gives, at the profile's values and at the ends.

use std::path::Path;
use std::rc::Rc;

use super::*;
use crate::cost::Profile;
use crate::machine::Outcome;
use crate::scenario::Scenario;
use crate::session::tape::{Entry, Mark, Tape};
use crate::session::{RunOpts, build_machine, report, run_to};

const CORES: [&str; 6] = ["u74", "x280", "x60", "generic", "c910", "p8700"];

fn scenario(name: &str) -> Scenario {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Scenario::load(&root.join("scenarios").join(name)).unwrap()
}

/// Each variant's run on `core` with a tape, and its band input (none for
/// a variant that does not finish); no band is computed.
fn taped(s: &Scenario, core: &str) -> Vec<(String, f64, Option<BandInput>)> {
    let opts = RunOpts {
        core: Some(Rc::new(Profile::find(core).unwrap())),
        bands: true,
        history: crate::session::NO_HISTORY,
        ..RunOpts::default()
    };
    s.variants
        .iter()
        .filter_map(|v| {
            let mut m = build_machine(s, v, &opts).ok()?;
            let o = match run_to(&mut m, s.budget) {
                Outcome::Stepped => Outcome::Budget,
                o => o,
            };
            let tape = m.observer_mut().tape.take()?;
            let run = report(s, v, &opts, &m, o, s.budget);
            let e = run.estimate?.cycles_per_iteration;
            let input = input_of(m.observer(), tape, s.measure.is_none());
            Some((v.name.clone(), e, input))
        })
        .collect()
}

/// The knobs' first and last ends together.
fn extremes(input: &BandInput) -> [Assign; 2] {
    let ks = input.knobs();
    let at = |last: bool| {
        ks.iter()
            .map(|k| {
                let v = if last { k.ends.last() } else { k.ends.first() };
                (k.key.clone(), v.unwrap().clone())
            })
            .collect()
    };
    [at(false), at(true)]
}

#[test]
fn replay_with_the_profiles_values_gives_the_runs_cycles_on_every_scenario_and_core() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    for name in &names {
        let s = scenario(name);
        for core in CORES {
            for (v, estimate, input) in taped(&s, core) {
                let input = input.expect("a tape");
                let work = input.work(&input.window(&Vec::new()).window);
                assert!(
                    (work - estimate).abs() < 1e-9,
                    "{name} {v} on {core}: replay {work} against the run's {estimate}"
                );
            }
        }
    }
}

#[test]
fn reusing_repeated_segments_changes_nothing_at_the_ends() {
    for name in ["ras-trap-entry.toml", "fp-lazy-switch.toml"] {
        let s = scenario(name);
        for core in CORES {
            for (v, _, input) in taped(&s, core) {
                let input = input.expect("a tape");
                for a in std::iter::once(Vec::new()).chain(extremes(&input)) {
                    assert_eq!(
                        replay_plain(&input, &a, true),
                        replay_plain(&input, &a, false),
                        "{name} {v} on {core}: reuse changed the cycles at {a:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_band_holds_its_estimate_and_says_when_the_path_is_held_fixed() {
    // ras-trap-entry's loop reads no clock and takes no interrupt; the
    // timer interrupts irq-trap-entry's.
    for (name, fixed) in [
        ("ras-trap-entry.toml", false),
        ("irq-trap-entry.toml", true),
    ] {
        let s = scenario(name);
        for (v, estimate, input) in taped(&s, "u74") {
            let input = input.expect("a tape");
            assert_eq!(input.clock_dependent, fixed, "{name} {v}");
            let b = of_work(&[(&input, 1.0)]).expect("a band");
            assert_eq!(b.cycles.path_fixed, fixed, "{name} {v}");
            assert!(
                b.cycles.low <= estimate && estimate <= b.cycles.high,
                "{name} {v}: {b:?}"
            );
            assert!(
                b.cycles.low < b.cycles.high,
                "{name} {v}: the U74 has unverified values"
            );
        }
    }
}

/// The generic core with only `csr_flush` (4..7) and `csr_write_flush`
/// (rocket|all) given ends: every other value held.
fn two_knob_core() -> Profile {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(root.join("assets/cores/generic.toml")).unwrap();
    let held: String = src
        .lines()
        .map(|l| {
            let keep = l.starts_with("csr_flush ") || l.starts_with("csr_write_flush ");
            match l.find(", range = ").or_else(|| l.find(", alternatives = ")) {
                Some(at) if !keep => format!(
                    "{} }}\n",
                    &l[..at].replace("assumption = \"", "source = \"")
                ),
                _ => format!("{l}\n"),
            }
        })
        .collect();
    Profile::parse(Path::new("two-knobs.toml"), &held).unwrap()
}

/// A tape of one block run once inside the window, on `p`.
fn one_block(p: &Profile, words: &[u32], csr_writes: u64) -> BandInput {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let insns = crate::isa::decode_range(0x1000, &bytes);
    let mut t = Tape::default();
    let id = t.block(&insns);
    t.event(Entry::Mark(Mark::WindowStart));
    for i in 0..insns.len() {
        t.insn(id, i, 0, 1);
    }
    t.close(Some(0x1000 + 4 * words.len() as u64));
    t.event(Entry::Mark(Mark::WindowEnd));
    let mut counts = vec![0; crate::cost::N_CATS];
    counts[Cat::CsrWrites as usize] = csr_writes;
    BandInput::new(
        t,
        Rc::new(p.clone()),
        vec!["kernel".into()],
        1,
        counts,
        false,
    )
}

const CSRW_SSCRATCH: u32 = 0x1402_9073; // csrw sscratch, t0
const CSRW_STVEC: u32 = 0x1052_9073; // csrw stvec, t0
const ADDI_A0: u32 = 0x0015_0513; // addi a0, a0, 1

#[test]
fn a_bands_ends_are_the_hand_counted_extremes_of_a_small_kernel() {
    // The generic core issues one instruction a cycle. csrw sscratch: 1
    // cycle, and a flush of f only under "all" (rocket spares the scratch
    // CSR); csrw stvec: 1, then its flush f under both rules; addi, in a
    // new group after the flush: 1. So rocket: 3 + f, all: 3 + 2f, and
    // over f = 4 and 7: 7, 10, 11, 17.
    let p = two_knob_core();
    let a = one_block(&p, &[CSRW_SSCRATCH, CSRW_STVEC, ADDI_A0], 2);
    let keys: Vec<String> = a.knobs().into_iter().map(|k| k.key).collect();
    assert_eq!(keys, ["csr_write_flush", "csr_flush"]);
    let b = of_work(&[(&a, 1.0)]).unwrap().cycles;
    assert_eq!((b.low, b.high), (7.0, 17.0));
    assert_eq!(b.method, Method::EveryCombination);
    // Alone, the rule moves it 7 → 11 and the flush 7 → 10.
    assert_eq!(b.moved_most_by.as_deref(), Some("csr_write_flush"));
    // The clock is 1 GHz with no ends: ns as cycles.
    let ns = of_work(&[(&a, 1.0)]).unwrap().ns;
    assert_eq!((ns.low, ns.high), (7.0, 17.0));
    // Without the scratch write: 2 + f under either rule. The difference
    // takes the same values on both sides: rocket 1 and 1, all 1 + f = 5
    // and 8; never a's low minus b's high (7 - 9 = -2).
    let c = one_block(&p, &[CSRW_STVEC, ADDI_A0], 1);
    let d = of_work(&[(&a, 1.0), (&c, -1.0)]).unwrap().cycles;
    assert_eq!((d.low, d.high), (1.0, 8.0));
    assert_eq!(d.moved_most_by.as_deref(), Some("csr_write_flush"));
}
