//! The minikernel's pt_regs layout as trapscope names it
//! (`MINIKERNEL_PT_REGS`) against the guest's own code: at the save point
//! (`mv a0, sp` in handle_exception) the frame at sp holds, at each named
//! offset, the register of that name as it was at the `ecall`, and the
//! machine records sp there as the trap's frame (`Machine::trap_frame`).

use std::path::Path;

use trapscope::isa::ABI;
use trapscope::machine::{MINIKERNEL_PT_REGS, Outcome, Program, Until, decode_range, is_save};
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts};

fn scenario() -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml"))
        .unwrap()
}

/// The `mv a0, sp` in `func`, from the ELF's bytes (minikernel-entry.inc:
/// `move a0, sp` after the last `sd` into pt_regs). `is_save` is the
/// machine's own test, so check the instruction's bytes by hand too.
fn save_point(p: &Program, func: &str) -> u64 {
    let s = p.symbol(func).unwrap();
    let bytes = p.text_bytes(s.addr, s.size as usize).unwrap();
    let d = decode_range(s.addr, bytes)
        .into_iter()
        .find(|d| d.insn.is_some_and(|i| is_save(&i)))
        .unwrap();
    // c.mv a0, sp (objdump: 850a).
    assert_eq!(d.raw, 0x850a, "{func}");
    d.pc
}

#[test]
fn the_named_offsets_hold_the_registers_the_entry_saved() {
    let s = scenario();
    for v in &s.variants {
        let p = v.program.clone();
        let mut m = session::build_machine(&s, v, &RunOpts::default()).unwrap();
        let run_to = |m: &mut trapscope::machine::Machine<_>, addrs: Vec<u64>| {
            let o = m.run(&Until {
                max_insns: Some(1_000_000),
                addrs,
                ..Until::default()
            });
            assert!(matches!(o, Outcome::ReachedAddr(_)), "{}: {o:?}", v.name);
        };
        let ecall = p.symbol("user_syscall_ecall").unwrap().addr;
        run_to(&mut m, vec![ecall]);
        let at_ecall = m.gprs();
        let entries = ["handle_exception", "handle_exception_ras"];
        run_to(
            &mut m,
            entries.iter().map(|e| p.symbol(e).unwrap().addr).collect(),
        );
        let func = entries
            .into_iter()
            .find(|e| p.symbol(e).unwrap().addr == m.pc())
            .unwrap();
        let trap_at = m.executed();
        let sstatus = m.csr(0x100).unwrap();
        // At the entry nothing is saved yet.
        assert_eq!(m.trap_frame(trap_at, None), None, "{}", v.name);
        run_to(&mut m, vec![save_point(&p, func)]);
        let frame = m.gpr(2);
        // Reaching the save point records sp there as the frame.
        assert_eq!(m.trap_frame(trap_at, None), Some(frame), "{}", v.name);
        assert_eq!(m.step(), Outcome::Stepped);
        assert_eq!(m.trap_frame(trap_at, None), Some(frame), "{}", v.name);
        let field = |name: &str| {
            let i = MINIKERNEL_PT_REGS.iter().position(|n| *n == name).unwrap();
            m.read_u64(frame + 8 * i as u64).unwrap()
        };
        for (r, name) in ABI.iter().enumerate().skip(1) {
            let name = match *name {
                "fp" => "s0",
                n => n,
            };
            assert_eq!(field(name), at_ecall[r], "{}: pt_regs->{name}", v.name);
        }
        assert_eq!(field("epc"), ecall, "{}", v.name);
        assert_eq!(field("cause"), 8, "{}: ecall from U", v.name);
        assert_eq!(field("badaddr"), 0, "{}: an ecall's stval", v.name);
        assert_eq!(field("status"), sstatus, "{}", v.name);
    }
}

/// The DWARF reader on a tiny C program (tests/fixtures/dwarf/pt_regs.c):
/// the definition's members in order, at 8 × index, each 8 bytes, past a
/// declaration and a member of another struct with the same name.
#[test]
fn dwarf_struct_pt_regs_gives_member_names_and_offsets() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dwarf/pt_regs_dwarf.elf");
    let bytes = std::fs::read(&path).unwrap();
    let p = Program::parse_symbols(&path, &bytes).unwrap();
    // pt_regs.c declares the same 36 slots as the minikernel's PT_*.
    let names: Vec<&str> = p.pt_regs.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, MINIKERNEL_PT_REGS);
    for (i, m) in p.pt_regs.iter().enumerate() {
        assert_eq!((m.offset, m.size), (8 * i as u64, 8), "{}", m.name);
    }
    // An assembled guest has no C types.
    let elf = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel.elf");
    assert!(Program::load(&elf).unwrap().pt_regs.is_empty());
}
