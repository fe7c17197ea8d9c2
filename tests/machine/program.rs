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

/// `sym+0xOFF` must name an instruction start. handle_exception begins with
/// `csrrw tp, sscratch, tp` (a 32-bit CSR instruction: csrrw has no
/// compressed form) and then `bnez tp, ...` (guest-asm/include/
/// minikernel-entry.inc), so +0x4 is the second instruction, +0x2 is inside
/// the first, and an odd offset is never one.
#[test]
fn a_location_inside_an_instruction_is_refused() {
    let p = Program::load(&root().join("assets/guest/minikernel.elf")).unwrap();
    let base = p.symbol("handle_exception").unwrap().addr;
    assert_eq!(p.locate("handle_exception+0x4"), Ok(base + 4));
    let inside = p.locate("handle_exception+0x2").unwrap_err().to_string();
    assert!(
        inside.contains("inside the 4-byte instruction at handle_exception+0x0")
            && inside.contains("handle_exception+0x4"),
        "{inside}"
    );
    let odd = p.locate("handle_exception+0x11").unwrap_err().to_string();
    assert!(odd.contains("2-byte aligned"), "{odd}");
}
