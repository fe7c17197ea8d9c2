//! The committed guest ELFs (assets/guest) and /init programs (assets/init)
//! are exactly what `guest-asm/build.sh` produces
//! (docs/decisions.md D5). Runs whenever the RISC-V assembler is present;
//! CI sets TRAPSCOPE_REQUIRE_GUEST_AS=1 so a missing assembler fails there.

use std::path::{Path, PathBuf};
use std::process::Command;

fn elfs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "elf") {
                out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn committed_guest_elfs_match_a_fresh_build() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let have_as = Command::new("riscv64-linux-gnu-as")
        .arg("--version")
        .output()
        .is_ok();
    if !have_as {
        assert!(
            std::env::var_os("TRAPSCOPE_REQUIRE_GUEST_AS").is_none(),
            "TRAPSCOPE_REQUIRE_GUEST_AS is set but riscv64-linux-gnu-as is missing"
        );
        eprintln!("skipping: riscv64-linux-gnu-as not installed");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("trapscope-guest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let (out, init) = (tmp.join("guest"), tmp.join("init"));
    let st = Command::new("bash")
        .arg(root.join("guest-asm/build.sh"))
        .arg(&out)
        .arg(&init)
        .status()
        .unwrap();
    assert!(st.success(), "guest-asm/build.sh failed");
    // The bare-metal guests, and the Linux /init programs for snapshots.
    for (fresh_dir, committed) in [(out, "assets/guest"), (init, "assets/init")] {
        let committed = root.join(committed);
        let fresh = elfs(&fresh_dir);
        assert_eq!(
            fresh,
            elfs(&committed),
            "the set of ELFs differs from {}",
            committed.display()
        );
        for rel in &fresh {
            let a = std::fs::read(fresh_dir.join(rel)).unwrap();
            let b = std::fs::read(committed.join(rel)).unwrap();
            assert!(
                a == b,
                "{} differs from a fresh build: run guest-asm/build.sh and commit",
                rel.display()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
