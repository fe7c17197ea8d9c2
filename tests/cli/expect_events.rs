//! Expectations on event counts: a kind of event that exists but never
//! happened reads 0 (so "no VS change" can be asserted on a variant that
//! never touches V), and a name that is no kind of event is refused at
//! load, at the `file:line:col` of the misspelt step.
//!
//! The scenario is scenarios/vstate-initial.toml with fewer iterations and
//! its own variants. Expected counts come from the guest's design (the
//! comment block above that file's expectations and guest-asm/minikernel/
//! vector.S): with `has_vector = 0` the kernel installs no vector path, so
//! no VS change and no vector instruction ever happens; with V=1 the
//! mainline entry nulls the registers on every call, which turns VS on and
//! off again.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{fails_one_line, scratch, trapscope_within, write};

const LIMIT: Duration = Duration::from_secs(300);

/// vstate-initial.toml's header, knobs (10 timed iterations after 2 of
/// warm-up), phases and measured loop, the variants given, and `tail`; and the line `tail` starts on.
fn scenario(variants: &str, tail: &str) -> (String, usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(root.join("scenarios/vstate-initial.toml")).unwrap();
    // The header and the knobs, without the references to its variants.
    let head = format!(
        "{}{}",
        &src[..src.find("[[reference]]").unwrap()],
        &src[src.find("[knobs.iterations]").unwrap()..src.find("[[variants]]").unwrap()]
    );
    let elf = root.join("assets/guest/minikernel.elf");
    let head = head
        .replace(
            "elf = \"../assets/guest/minikernel.elf\"",
            &format!("elf = \"{}\"", elf.display()),
        )
        .replace(
            "symbol = \"knob_iterations\"\ndefault = 100",
            "symbol = \"knob_iterations\"\ndefault = 10",
        )
        .replace(
            "symbol = \"knob_warmup\"\ndefault = 10",
            "symbol = \"knob_warmup\"\ndefault = 2",
        );
    assert!(head.contains("default = 10\n[knobs.warmup]"), "{head}");
    // The phases and the measured loop, without the pairs and expectations.
    let measure = &src[src.find("[phases]").unwrap()..src.find("[[narration]]").unwrap()];
    let body = format!("{head}{measure}{variants}");
    let first = body.lines().count() + 1;
    (format!("{body}{tail}"), first)
}

const VARIANTS: &str = "[[variants]]\nname = \"no_v\"\nlabel = \"mainline, no V at all\"\n\
     knobs = { has_vector = 0, use_vector = 0 }\n\n\
     [[variants]]\nname = \"base_v0\"\nlabel = \"mainline, V=0\"\nknobs = { use_vector = 0 }\n\n\
     [[variants]]\nname = \"base_v1\"\nlabel = \"mainline, V=1\"\nknobs = { use_vector = 1 }\n\n";

#[test]
fn an_event_kind_that_never_happened_reads_zero() {
    let (src, _) = scenario(
        VARIANTS,
        "[[expect]]\nname = \"no VS change per call\"\ncheck = \"no_v.events_per_iteration.vs == 0\"\n\
         [[expect]]\nname = \"no VS change in the whole run\"\ncheck = \"no_v.events.vs == 0\"\n\
         [[expect]]\nname = \"no vector instruction\"\ncheck = \"no_v.events_per_iteration.vector + no_v.events.vector == 0\"\n\
         [[expect]]\nname = \"V=0: no VS change per call\"\ncheck = \"base_v0.events_per_iteration.vs == 0\"\n\
         [[expect]]\nname = \"V=1: the entry turns VS on and off\"\ncheck = \"base_v1.events_per_iteration.vs > 0\"\n",
    );
    let dir = scratch("expect-events-zero");
    let p = write(&dir, "v.toml", src.as_bytes());
    let out = trapscope_within(&["check", &p], LIMIT);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "no VS change per call (0 == 0)",
        "no VS change in the whole run (0 == 0)",
        "no vector instruction (0 + 0 = 0 == 0)",
        "V=0: no VS change per call (0 == 0)",
    ] {
        let want = format!("  ok    [x280] {line}");
        assert!(text.lines().any(|l| l == want), "no {want:?} in:\n{text}");
    }
    assert!(text.contains("5 passed, 0 failed"), "{text}");
}

#[test]
fn a_misspelt_event_kind_fails_at_load_with_its_place() {
    let (src, first) = scenario(
        VARIANTS,
        "[[expect]]\nname = \"typo\"\ncheck = \"no_v.events_per_iteration.vs-change == 0\"\n",
    );
    let dir = scratch("expect-events-typo");
    let p = write(&dir, "v.toml", src.as_bytes());
    for cmd in ["check", "run"] {
        let out = trapscope_within(&[cmd, &p], LIMIT);
        // `check = "` is 9 characters; "vs-change" is at byte 26 of the
        // value: column 10 + 26.
        fails_one_line(
            &out,
            2,
            &[
                &format!("{p}:{}:36", first + 2),
                "'vs-change' is not a kind of event",
                "vs, vector",
            ],
        );
    }
    // `retired` is a kind of event the counts leave out: refused, with
    // where retired instructions are counted.
    let (src, _) = scenario(
        VARIANTS,
        "[[expect]]\nname = \"retired\"\ncheck = \"no_v.events.retired == 0\"\n",
    );
    let p = write(&dir, "r.toml", src.as_bytes());
    let out = trapscope_within(&["check", &p], LIMIT);
    fails_one_line(
        &out,
        2,
        &["'retired' is not a kind of event", "instructions"],
    );
}
