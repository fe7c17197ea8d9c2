//! Messages that named the wrong cause, or none: a jump into the CLINT
//! blamed `--strict-segments`; `:watch` took a length that wraps past 2⁶⁴
//! (the watch never fired) and an address nothing maps; `:x 0 N` read `0`
//! as a symbol; an ELF core dump or relocatable object with PT_LOADs ran.

use crate::common;

use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use common::{Load, elf, fails_one_line, scratch, trapscope_within, write};
use trapscope::scenario::Scenario;
use trapscope::tui::state::{AppState, Lower};

const LIMIT: Duration = Duration::from_secs(120);

fn app() -> AppState {
    let s = Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml"),
    )
    .unwrap();
    AppState::new(Rc::new(s), None).unwrap()
}

/// The status line's message, when it is an error.
fn error(s: &AppState) -> String {
    match &s.message {
        Some((m, true)) => m.clone(),
        other => panic!("no error on the status line: {other:?}"),
    }
}

/// `lui t0, 0x2000; jr t0`: a jump to 0x2000000, the CLINT's base (U- and
/// I-type encodings by hand: 0x2000 << 12 | t0 << 7 | LUI; jalr x0, 0(t0)).
const JUMP_TO_CLINT: [u32; 2] = [0x0200_02b7, 0x0002_8067];

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn a_jump_into_the_clint_names_the_device_not_strict_segments() {
    let dir = scratch("clint-jump");
    let p = write(
        &dir,
        "clint.elf",
        &elf(
            0x8000_0000,
            &[Load::code(0x8000_0000, 0x1000, &words(&JUMP_TO_CLINT))],
        ),
    );
    let out = trapscope_within(&["elf", &p], LIMIT);
    fails_one_line(
        &out,
        125,
        &["instruction fetch of 0x2000000", "in the CLINT's registers"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("strict-segments"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn watch_refuses_a_length_that_wraps_and_an_address_nothing_maps() {
    let mut s = app();
    s.command("watch task_bench 0xffffffffffffffff");
    let e = error(&s);
    assert!(e.contains("wrap past the end of the address space"), "{e}");
    assert!(s.debug.watches.is_empty());
    // Nothing is mapped at 0 on QEMU virt (RAM starts at 0x80000000).
    s.command("watch 0x0");
    let e = error(&s);
    assert!(e.contains("nothing is mapped at 0x0"), "{e}");
    assert!(s.debug.watches.is_empty());
    // A range that runs off the end of RAM is refused too.
    let p = s.live.program().clone();
    let base = p.symbol("task_bench").unwrap().addr;
    s.command("watch task_bench 0x100000000");
    let e = error(&s);
    assert!(e.contains("nothing is mapped at task_bench"), "{e}");
    // A real one is still taken.
    s.command("watch task_bench+8 8");
    assert_eq!(s.debug.watches.len(), 1, "{:?}", s.message);
    assert_eq!(s.debug.watches[0].vaddr, base + 8);
}

#[test]
fn x_takes_a_decimal_address() {
    let mut s = app();
    s.command("x 0 16");
    assert!(
        s.message
            .as_ref()
            .is_some_and(|(m, e)| !*e && m.contains("(0x0), 16 bytes")),
        "{:?}",
        s.message
    );
    assert_eq!(s.lower, Lower::Memory);
    assert_eq!(s.debug.memory, Some((0, 16)));
    s.command("x 4096 8");
    assert_eq!(s.debug.memory, Some((4096, 8)));
}

#[test]
fn an_elf_that_is_not_an_executable_is_refused_naming_the_file() {
    let dir = scratch("elf-type");
    let good = elf(
        0x8000_0000,
        &[Load::code(0x8000_0000, 0x1000, &common::SPIN)],
    );
    // e_type sits at offset 16 (gABI "ELF Header").
    for (t, says) in [
        (4u16, "ET_CORE, a core dump"),
        (1, "ET_REL, a relocatable object"),
        (0, "ET_NONE"),
    ] {
        let mut b = good.clone();
        b[16..18].copy_from_slice(&t.to_le_bytes());
        let p = write(&dir, &format!("type{t}.elf"), &b);
        let out = trapscope_within(&["elf", &p], LIMIT);
        fails_one_line(&out, 2, &[&p, &format!("e_type is {t}"), says]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
