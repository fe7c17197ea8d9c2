//! Program's symbols as the work inits and a vmlinux need them (split from
//! init_work.rs, whose ELF readers it uses): code far from every symbol is
//! named by none, and symbols of sections not loaded are not addresses.

use super::*;

#[test]
fn code_far_from_every_symbol_is_named_by_none() {
    // A JIT's code (the riscv64 BPF JIT's region, below a vmlinux's text)
    // lies far from every symbol: Program::symbol_at names an unsized
    // symbol only within 64 KiB of it (src/program/).
    let p = load("seccomp");
    let last = p.symbols().iter().map(|s| s.addr).max().unwrap();
    assert!(p.symbol_at(last + 0x10_0000).is_none());
    // Near its symbols, a pc is still named: by the sized function that
    // covers it (init_loop is a label inside main).
    let at = addr(&p, "init_loop");
    let main = addr(&p, "main");
    assert_eq!(
        p.symbol_at(at).map(|(s, off)| (s.name.as_str(), off)),
        Some(("main", at - main))
    );
    // And an unsized symbol names what follows it within 64 KiB.
    let end = addr(&p, "init_fail_num_end");
    assert_eq!(p.symbol_at(end + 0x100).map(|(s, _)| s.addr), Some(end));
}

#[test]
fn symbols_of_sections_not_loaded_are_not_addresses() {
    // A vmlinux has symbols in .debug_info (the EFI stub's
    // `__efistub_.Ldebug_info0`): their values are offsets into a section
    // that is not in memory (no SHF_ALLOC), so they name no code.
    if !snapshot_util::binutils_or_skip() {
        return;
    }
    let dir = snapshot_util::scratch("init-work-nonalloc");
    let (src, obj, elf) = (dir.join("t.S"), dir.join("t.o"), dir.join("t.elf"));
    std::fs::write(
        &src,
        "\t.text\n\t.globl _start\n_start:\n\tnop\n\tret\n\t.section .debug_info, \"\", @progbits\n\t.skip 0x40\n\t.globl in_debug\nin_debug:\n\t.byte 0\n",
    )
    .unwrap();
    let run = |c: &mut std::process::Command| assert!(c.status().unwrap().success(), "{c:?}");
    run(std::process::Command::new("riscv64-linux-gnu-as")
        .arg("-o")
        .arg(&obj)
        .arg(&src));
    run(std::process::Command::new("riscv64-linux-gnu-ld")
        .args(["--build-id=none", "-Ttext=0x80000000", "-o"])
        .arg(&elf)
        .arg(&obj));
    let p = Program::load(&elf).unwrap();
    assert!(p.symbol("_start").is_some());
    assert!(p.symbol("in_debug").is_none(), "a .debug_info symbol");
    let _ = std::fs::remove_dir_all(&dir);
}
