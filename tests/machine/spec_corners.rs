//! The CSR layer's spec corners seen from outside the guest: what a pane
//! reads, and block mode against single-step while a debug trigger makes the
//! machine step.

use std::path::Path;
use std::rc::Rc;

use trapscope::machine::{DecodedInsn, Machine, Observer, Outcome, Program, Retire, Until};
use trapscope::trace::{Event, Priv};

#[derive(Default)]
struct Log(Vec<(u64, String)>, u64);

impl Observer for Log {
    type BlockData = ();
    fn build(&mut self, _: &[DecodedInsn]) {}
    fn retired(&mut self, r: &Retire<'_, ()>) -> u32 {
        self.1 += (r.to - r.from) as u64;
        0
    }
    fn event(&mut self, at: u64, ev: &Event) {
        // Retired ranges differ by design (a block against single steps).
        if !matches!(ev, Event::Retired { .. }) {
            self.0.push((at, format!("{ev:?}")));
        }
    }
}

fn machine(name: &str) -> Machine<Log> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/guest/tests/{name}.elf"));
    Machine::new(Rc::new(Program::load(&p).unwrap()), Log::default()).unwrap()
}

#[test]
fn trigger_tests_give_the_same_events_in_block_and_step_mode() {
    for name in ["triggers", "tsr_tvm", "xl", "fp_minmax", "fp_nanbox"] {
        let mut block = machine(name);
        let o = block.run(&Until {
            max_insns: Some(1_000_000),
            ..Until::default()
        });
        assert_eq!(o, Outcome::Exited(0), "{name}");
        let mut step = machine(name);
        let mut n = 0;
        while step.step() == Outcome::Stepped {
            n += 1;
            assert!(n < 1_000_000, "{name}: stepping did not end");
        }
        assert_eq!(step.exit_code(), Some(0), "{name}");
        assert_eq!(block.executed(), step.executed(), "{name}");
        assert_eq!(block.observer().1, step.observer().1, "{name}");
        assert_eq!(block.observer().0, step.observer().0, "{name}");
    }
}

#[test]
fn a_pane_reads_mstatus_and_the_trigger_as_the_guest_does() {
    let mut m = machine("xl");
    // Reset: UXL = SXL = 2 (priv spec §3.1.6.2), nothing else set.
    assert_eq!(m.csr(0x300), Some((2 << 32) | (2 << 34)));
    assert_eq!(m.csr(0x100), Some(2 << 32));
    // tselect 0, tdata1 type 2 disabled, tinfo type 2 (Sdtrig 1.0).
    assert_eq!(m.csr(0x7a0), Some(0));
    assert_eq!(m.csr(0x7a1), Some(2 << 60));
    assert_eq!(m.csr(0x7a4).map(|v| v & 0xffff), Some(4));
    assert_eq!(m.priv_(), Priv::M);
}
