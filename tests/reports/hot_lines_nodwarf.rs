//! Hot lines of code without DWARF lines (a vmlinux built without debug
//! info): each instruction counts as its own line, named function+offset
//! with its disassembly, rather than vanishing from the report.

use crate::common;

use std::time::Duration;

#[test]
fn without_dwarf_the_hot_lines_name_kernel_code_by_function_and_offset() {
    let dir = common::scratch("hot-nodwarf");
    let root = env!("CARGO_MANIFEST_DIR");
    let stripped = dir.join("minikernel-nodwarf.elf");
    let st = std::process::Command::new("riscv64-linux-gnu-objcopy")
        .arg("--strip-debug")
        .arg(format!("{root}/assets/guest/minikernel.elf"))
        .arg(&stripped)
        .status();
    match st {
        Ok(s) if s.success() => {}
        _ if std::env::var_os("TRAPSCOPE_REQUIRE_GUEST_AS").is_none() => {
            eprintln!("skipped: riscv64-linux-gnu-objcopy not found");
            return;
        }
        other => panic!("objcopy: {other:?}"),
    }
    let text = std::fs::read_to_string(format!("{root}/scenarios/ras-trap-entry.toml")).unwrap();
    let text = text.replace(
        "elf = \"../assets/guest/minikernel.elf\"",
        &format!("elf = {:?}", stripped.to_string_lossy()),
    );
    let scen = common::write(&dir, "nodwarf.toml", text.as_bytes());
    let out = common::trapscope_within(&["run", &scen, "--core", "u74"], Duration::from_secs(120));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hot: Vec<&str> = report
        .lines()
        .skip_while(|l| !l.contains("hot lines"))
        .skip(1)
        .take_while(|l| l.starts_with("     "))
        .collect();
    // The minikernel's trap path is where the cycles go (with DWARF its
    // lines are entry.S's and syscall.S's): by function+offset now, with
    // the instruction (`sret` ends ret_from_exception, entry.S:92).
    assert!(hot.len() >= 4, "{report}");
    assert!(
        hot.iter()
            .any(|l| l.contains("ret_from_exception+0x") && l.contains("sret")),
        "{hot:#?}"
    );
    assert!(
        hot.iter().any(|l| l.contains("handle_exception+0x")),
        "{hot:#?}"
    );
}
