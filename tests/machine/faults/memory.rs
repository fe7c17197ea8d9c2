//! Memory and code under the machine (split from faults.rs, whose helpers it
//! uses): under `--strict-segments` an access outside the segments or a
//! write to text ends the run with that fault; code written over through
//! the API, loaded from a segment without flags, or run at a virtual alias
//! of its physical address is still decoded as it is.

use super::*;

#[test]
fn under_strict_segments_an_access_fault_ends_the_run() {
    let p = Rc::new(Program::load(&root().join("assets/guest/tests/access_fault.elf")).unwrap());
    let cfg = trapscope::machine::MachineConfig {
        strict_segments: true,
        ..Default::default()
    };
    let ld = p.symbol("m_ld").unwrap().addr;
    let mut m = Machine::with_config(p, NoObserver, cfg).unwrap();
    let o = m.run(&Until::default());
    assert_eq!(
        o,
        Outcome::Fault(GuestFault::Unmapped {
            pc: ld,
            addr: 0x4000_0000,
            access: trapscope::trace::Access::Read
        })
    );
    // The instructions before it in its block ran, the ld did not trap.
    assert_eq!(m.last_trap(), None);
}

#[test]
fn under_strict_segments_a_vector_store_to_text_is_a_protection_fault() {
    // bad/vector_overwrite.S: `vse8.v v1, (t2)` with t2 = handler, in text.
    let p = Rc::new(Program::load(&root().join("assets/guest/bad/vector_overwrite.elf")).unwrap());
    let handler = p.symbol("handler").unwrap().addr;
    let cfg = trapscope::machine::MachineConfig {
        strict_segments: true,
        ..Default::default()
    };
    let mut m = Machine::with_config(p, NoObserver, cfg).unwrap();
    m.enable_vector(128);
    match m.run(&Until::default()) {
        Outcome::Fault(GuestFault::Protection { addr, access, .. }) => {
            assert_eq!(addr, handler);
            assert_eq!(access, trapscope::trace::Access::Write);
        }
        o => panic!("{o:?}"),
    }
    // Nothing was written: the handler is intact.
    let word = m.read_mem(handler, 4).unwrap();
    assert_ne!(word, vec![0, 0, 0, 0]);
}

#[test]
fn under_strict_segments_a_write_to_text_ends_the_run() {
    // smc.S's first write: `sw t1, 0(t0)` with t0 = patch, in text.
    let p = Rc::new(Program::load(&root().join("assets/guest/tests/smc.elf")).unwrap());
    let patch = p.symbol("patch").unwrap().addr;
    let cfg = trapscope::machine::MachineConfig {
        strict_segments: true,
        ..Default::default()
    };
    let mut m = Machine::with_config(p, NoObserver, cfg).unwrap();
    match m.run(&Until::default()) {
        Outcome::Fault(GuestFault::Protection { addr, access, .. }) => {
            assert_eq!((addr, access), (patch, trapscope::trace::Access::Write));
        }
        o => panic!("{o:?}"),
    }
    // And without it the same guest passes (RAM is writable).
    assert_eq!(
        same_in_both_modes("assets/guest/tests/smc.elf"),
        Outcome::Exited(0)
    );
}

#[test]
fn a_write_through_the_api_over_an_intercepted_instruction_drops_the_intercept() {
    // smc.S's `cyc` is `csrr a0, cycle; ret`, intercepted. Overwrite its
    // csrr from outside with `li a0, 0x7ff` (0x7ff00513) and run to its
    // `ret`: a0 must be 0x7ff. A stale intercept would emulate the csrr and
    // give the model's cycle count instead, which is the number of
    // instructions run so far here (no core model): far below 0x7ff at the
    // first call of cyc (test_main runs a few dozen instructions before).
    for single in [false, true] {
        let mut m = machine("assets/guest/tests/smc.elf");
        let cyc = m.program.symbol("cyc").unwrap().addr;
        let ret = m.read_u64(cyc).unwrap() >> 32;
        assert!(m.write_u64(cyc, (ret << 32) | 0x7ff0_0513));
        let until = Until {
            addrs: vec![cyc + 4],
            ..Until::default()
        };
        let o = if single {
            let mut o = Outcome::Stepped;
            while o == Outcome::Stepped && m.pc() != cyc + 4 {
                o = m.step();
            }
            o
        } else {
            m.run(&until)
        };
        assert!(
            matches!(o, Outcome::ReachedAddr(_) | Outcome::Stepped),
            "{o:?}"
        );
        assert_eq!(m.pc(), cyc + 4);
        assert_eq!(m.gpr(10), 0x7ff, "single={single}");
    }
}

#[test]
fn a_loadable_segment_without_flags_is_code_too() {
    // Some linker scripts (riscv-tests' env/p/link.ld) put all of a guest
    // in one PT_LOAD with no R/W/X flags. RAM is RWX, so its instructions
    // run; trapscope must also find the ones it runs itself there. Take
    // counters.S (it checks cycle/instret, which trapscope intercepts) and
    // clear the flags of its executable segments.
    let mut elf = std::fs::read(root().join("assets/guest/tests/counters.elf")).unwrap();
    let u16_at = |b: &[u8], o: usize| u16::from_le_bytes([b[o], b[o + 1]]) as usize;
    let phoff = u64::from_le_bytes(elf[0x20..0x28].try_into().unwrap()) as usize;
    let (size, n) = (u16_at(&elf, 0x36), u16_at(&elf, 0x38));
    let mut cleared = 0;
    for i in 0..n {
        let ph = phoff + i * size;
        let ty = u32::from_le_bytes(elf[ph..ph + 4].try_into().unwrap());
        let flags = u32::from_le_bytes(elf[ph + 4..ph + 8].try_into().unwrap());
        if ty == 1 && flags & 1 != 0 {
            elf[ph + 4..ph + 8].copy_from_slice(&0u32.to_le_bytes());
            cleared += 1;
        }
    }
    assert!(cleared >= 1);
    let path = std::env::temp_dir().join(format!("trapscope-flagless-{}.elf", std::process::id()));
    std::fs::write(&path, &elf).unwrap();
    let (code, err, _) = elf_run(&path);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, Some(0), "{err}");
}

fn elf_run(path: &Path) -> (Option<i32>, String, Duration) {
    elf(&[path.to_str().unwrap()])
}

#[test]
fn code_at_a_virtual_address_is_decoded_from_its_physical_one() {
    // smc_paged.S calls `patch` at its alias VA = PA + 0x4000_0000 (Sv39):
    // its instructions (li/csrr, ret) retire at the alias addresses. unicorn's
    // memory API is physical, so reading the code at the VA would find
    // nothing and account no instruction there.
    let p = Program::load(&root().join("assets/guest/tests/smc_paged.elf")).unwrap();
    let patch = p.symbol("patch").unwrap().addr;
    for single in [false, true] {
        let (o, _, r) = recorded("assets/guest/tests/smc_paged.elf", single);
        assert_eq!(o, Outcome::Exited(0));
        let alias = patch + 0x4000_0000;
        // Two calls, each retiring both instructions of patch at the alias.
        assert_eq!(r.pcs.iter().filter(|&&pc| pc == alias).count(), 2);
        assert_eq!(r.pcs.iter().filter(|&&pc| pc == alias + 4).count(), 2);
    }
}
