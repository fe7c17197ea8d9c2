//! ELF loading: symbols and the DWARF line table map a pc to its `.S` line.

use std::path::Path;

use trapscope::machine::Program;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The 1-based line of the first instruction after `label:` in `file`.
fn line_after_label(file: &str, label: &str) -> u32 {
    let src = std::fs::read_to_string(root().join("guest-asm").join(file)).unwrap();
    let at = src
        .lines()
        .position(|l| l.trim_start().starts_with(&format!("{label}:")))
        .unwrap();
    let next = src
        .lines()
        .enumerate()
        .skip(at + 1)
        .find(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#') && !t.starts_with('.')
        })
        .unwrap();
    next.0 as u32 + 1
}

#[test]
fn a_pc_maps_to_its_source_line() {
    let p = Program::load(&root().join("assets/guest/minikernel.elf")).unwrap();
    for (sym, file) in [
        ("sys_getppid", "minikernel/syscall.S"),
        ("syscall", "minikernel/user.S"),
        ("kernel_start", "minikernel/kernel.S"),
    ] {
        let a = p.symbol(sym).unwrap().addr;
        let want = format!("{file}:{}", line_after_label(file, sym));
        assert_eq!(p.loc_string(a).as_deref(), Some(want.as_str()), "{sym}");
    }
}

#[test]
fn symbols_name_addresses_inside_functions() {
    let p = Program::load(&root().join("assets/guest/minikernel.elf")).unwrap();
    let f = p.symbol("do_trap_ecall_u").unwrap();
    assert!(f.is_func && f.size > 0);
    assert_eq!(p.describe(f.addr), "do_trap_ecall_u");
    assert_eq!(p.describe(f.addr + 8), "do_trap_ecall_u+0x8");
    // `.equ` constants are not symbols of the program.
    assert!(
        p.symbols().iter().all(|s| s.addr >= 0x1_0000),
        "an absolute constant leaked into the symbols"
    );
    // The loader maps the three regions from trapscope.ld (the minikernel's
    // user region is linked into RAM at 0x8040_0000, as QEMU virt needs).
    let starts: Vec<u64> = p.segments.iter().map(|s| s.vaddr).collect();
    assert!(
        starts.contains(&0x8000_0000)
            && starts.contains(&0x8020_0000)
            && starts.contains(&0x8040_0000),
        "{starts:x?}"
    );
}
