//! sstatus.FS as events (docs/scenarios/fp-state.md): the guest
//! self-test fs_state.S (guest-asm/tests/) runs FP instructions with FS Off,
//! Initial and Clean; here the events trapscope reports for it are checked
//! against the labels in that program, in block mode and single steps.

use std::path::Path;
use std::process::Command;
use std::rc::Rc;

use trapscope::machine::{DecodedInsn, Machine, Observer, Outcome, Program, Retire, Until};
use trapscope::trace::Event;

#[derive(Default)]
struct Log(Vec<(u64, Event)>);

impl Observer for Log {
    type BlockData = ();
    fn build(&mut self, _: &[DecodedInsn]) {}
    fn retired(&mut self, _: &Retire<'_, ()>) -> u32 {
        0
    }
    fn event(&mut self, at: u64, ev: &Event) {
        if !matches!(ev, Event::Retired { .. }) {
            self.0.push((at, ev.clone()));
        }
    }
}

fn program() -> Rc<Program> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/tests/fs_state.elf");
    Rc::new(Program::load(&p).unwrap())
}

fn addr(p: &Program, name: &str) -> u64 {
    p.symbol(name).unwrap_or_else(|| panic!("{name}")).addr
}

fn run(step: bool) -> Machine<Log> {
    let mut m = Machine::new(program(), Log::default()).unwrap();
    if step {
        let mut n = 0;
        while m.step() == Outcome::Stepped {
            n += 1;
            assert!(n < 100_000, "stepping did not end");
        }
    } else {
        let o = m.run(&Until {
            max_insns: Some(100_000),
            ..Until::default()
        });
        assert_eq!(o, Outcome::Exited(0));
    }
    assert_eq!(m.exit_code(), Some(0), "fs_state.S failed a check");
    m
}

fn fs_events(m: &Machine<Log>) -> Vec<(u64, u8, u8, u64, String)> {
    m.observer()
        .0
        .iter()
        .filter_map(|(at, e)| match e {
            Event::FsChange { from, to, pc, why } => Some((*at, *from, *to, *pc, why.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn an_fp_instruction_with_fs_off_raises_illegal_instruction() {
    let m = run(false);
    let p = program();
    let off = addr(&p, "fs_off_fadd");
    // fs_state.S: the fadd.d at fs_off_fadd is the first trap, cause 2,
    // mtval its encoding; FS stays Off (no FS event before the first
    // status write, which comes after the four illegal instructions).
    let traps: Vec<_> = m
        .observer()
        .0
        .iter()
        .filter_map(|(_, e)| match e {
            Event::TrapEnter {
                cause, epc, tval, ..
            } => Some((*cause, *epc, *tval)),
            _ => None,
        })
        .collect();
    assert_eq!(traps.len(), 4, "{traps:?}");
    let raw = p.text_bytes(off, 4).unwrap();
    let enc = u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
    assert_eq!(traps[0], (2, off, u64::from(enc)));
    assert_eq!(traps[3].1, addr(&p, "fs_off_fcsr"));
    let first_fs = fs_events(&m)[0].3;
    assert!(first_fs > addr(&p, "fs_off_fcsr"), "{first_fs:#x}");
}

#[test]
fn the_first_fp_write_makes_fs_dirty_with_an_event_naming_its_pc() {
    let m = run(false);
    let p = program();
    let ev = fs_events(&m);
    let dirty: Vec<_> = ev.iter().filter(|e| e.2 == 3).collect();
    // Three writes, each from Initial or Clean: fmv.d.x, fld, csrw fcsr.
    assert_eq!(dirty.len(), 3, "{ev:?}");
    assert_eq!(dirty[0].1, 1, "Initial before the first write");
    assert_eq!(dirty[0].3, addr(&p, "fs_first_write"));
    assert!(dirty[0].4.starts_with("fmv.d.x ft4, t0"), "{}", dirty[0].4);
    assert_eq!((dirty[1].1, dirty[1].3), (2, addr(&p, "fs_clean_load")));
    assert_eq!((dirty[2].1, dirty[2].3), (2, addr(&p, "fs_csr_write")));
    assert!(dirty[2].4.contains("writes fcsr"), "{}", dirty[2].4);
    // The fsd between Initial and the first write changed nothing: the
    // event before the first Dirty one is the csrs that set Initial.
    let i = ev.iter().position(|e| e.2 == 3).unwrap();
    assert_eq!((ev[i - 1].1, ev[i - 1].2), (0, 1));
    assert!(ev[i - 1].4.contains("writes mstatus"), "{}", ev[i - 1].4);
    // Each event goes from the state the one before left.
    for w in ev.windows(2) {
        assert_eq!(w[0].2, w[1].1, "{w:?}");
    }
}

#[test]
fn fs_events_are_the_same_in_block_mode_and_single_steps() {
    let block = run(false);
    let step = run(true);
    assert_eq!(fs_events(&block), fs_events(&step));
    assert_eq!(block.observer().0, step.observer().0);
}

#[test]
fn run_events_prints_fs_changes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .args(["elf", "--events"])
        .arg(root.join("assets/guest/tests/fs_state.elf"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text.lines()
            .any(|l| l.contains("fs        Initial -> Dirty at ")
                && l.ends_with("fmv.d.x ft4, t0 writes an f register")),
        "{text}"
    );
}

#[test]
fn a_debugger_reads_the_fp_registers_and_fcsr_even_with_fs_off() {
    let mut m = run(false);
    // fs_state.S ends with FS Off after writing fcsr = 0x21 and ft4 = pi.
    let before = m.csr(0x300);
    let st = m.fp_state();
    assert_eq!(m.csr(0x300), before, "mstatus as it was");
    assert_eq!(st.fs, 0);
    assert_eq!(st.fcsr, 0x21);
    assert_eq!(st.f[4], 0x4009_21fb_5444_2d18);
    // Reading left FS Off.
    assert_eq!(m.fs(), 0);
}

/// scenarios/fp-lazy-switch.toml, dirty variant: each task adds 1.0 to its
/// fs0 before each of its yields (zz-fpu.S fp_touch), knob_warmup +
/// knob_ctx_switches = 10 + 50 of them. The tasks share one hart, so the
/// parent's fs0 reads its own 60 at ctx_timed_done only if every switch
/// stored the leaving task's registers and loaded the arriving one's (with
/// no FP switching both tasks would add to one fs0: about 120).
#[test]
fn the_lazy_switch_keeps_each_tasks_f_registers() {
    use trapscope::scenario::Scenario;
    use trapscope::session::{self, RunOpts};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/fp-lazy-switch.toml");
    let s = Scenario::load(&path).unwrap();
    for (v, want) in [("dirty", 60.0), ("clean", 0.0)] {
        let mut m = session::build_machine(&s, s.variant(v).unwrap(), &RunOpts::default()).unwrap();
        let done = m.program.symbol("ctx_timed_done").unwrap().addr;
        let o = m.run(&Until {
            addrs: vec![done],
            max_insns: Some(1_000_000),
            ..Until::default()
        });
        assert_eq!(o, Outcome::ReachedAddr(done), "{v}");
        let fs0 = f64::from_bits(m.fp_state().f[8]);
        assert_eq!(fs0, want, "{v}: the parent's fs0");
        // Back in user mode the parent's FS is what its last load left,
        // Clean, or Dirty after a write since (fp_touch).
        assert!(m.fs() >= 2, "{v}: FS {}", m.fs());
    }
}
