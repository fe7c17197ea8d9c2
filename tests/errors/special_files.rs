//! Only regular files are read, and only up to a cap: a FIFO, a device, a
//! directory or an oversized file given as any input ends at once with one
//! line and exit 2.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{fails_one_line, scratch, trapscope_within, write};

const LIMIT: Duration = Duration::from_secs(3);

fn manifest(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(p)
        .to_string_lossy()
        .into_owned()
}

/// A socket, a FIFO, /dev/zero, /dev/urandom and a directory, each with the words
/// the refusal uses for it.
fn specials(dir: &Path) -> Vec<(String, &'static str)> {
    let fifo = dir.join("pipe.toml");
    let ok = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(ok.success());
    let sub = dir.join("sub.toml");
    std::fs::create_dir_all(&sub).unwrap();
    let sock = dir.join("sock.toml");
    // Kept bound for the test's life: leaked on purpose (a test process).
    std::mem::forget(std::os::unix::net::UnixListener::bind(&sock).unwrap());
    vec![
        (sock.to_string_lossy().into_owned(), "socket"),
        (fifo.to_string_lossy().into_owned(), "FIFO"),
        ("/dev/zero".into(), "character device"),
        ("/dev/urandom".into(), "character device"),
        (sub.to_string_lossy().into_owned(), "directory"),
    ]
}

#[test]
fn the_elf_must_be_a_regular_file() {
    let dir = scratch("special-elf");
    for (p, kind) in specials(&dir) {
        let out = trapscope_within(&["elf", &p], LIMIT);
        fails_one_line(&out, 2, &[&p, "guest ELF", kind, "regular files"]);
    }
}

#[test]
fn the_scenario_must_be_a_regular_file() {
    let dir = scratch("special-scenario");
    for (p, kind) in specials(&dir) {
        for cmd in ["run", "compare", "check"] {
            let out = trapscope_within(&[cmd, &p], LIMIT);
            fails_one_line(&out, 2, &[&p, "scenario", kind]);
        }
    }
}

#[test]
fn a_core_profile_must_be_a_regular_file() {
    let dir = scratch("special-core");
    for (p, kind) in specials(&dir) {
        let out = trapscope_within(
            &["run", "scenarios/ras-trap-entry.toml", "--core", &p],
            LIMIT,
        );
        fails_one_line(&out, 2, &[&p, "core profile", kind]);
    }
}

#[test]
fn files_a_scenario_names_must_be_regular_files() {
    let dir = scratch("special-named");
    for (p, kind) in specials(&dir) {
        // As the guest ELF.
        let s = write(
            &dir,
            "names_elf.toml",
            format!(
                "title = \"t\"\npatch = \"p\"\nelf = \"{p}\"\n\n[[variants]]\nname = \"only\"\n"
            )
            .as_bytes(),
        );
        let out = trapscope_within(&["run", &s], LIMIT);
        fails_one_line(&out, 2, &["names_elf.toml:3:7:", "guest ELF", kind]);
        // As a core profile (by a path ending in .toml).
        if !p.ends_with(".toml") {
            continue;
        }
        let s = write(
            &dir,
            "names_core.toml",
            format!(
                "title = \"t\"\npatch = \"p\"\nelf = \"{}\"\ncores = [\"{p}\"]\n\n[[variants]]\nname = \"only\"\n",
                manifest("assets/guest/minikernel.elf")
            )
            .as_bytes(),
        );
        let out = trapscope_within(&["run", &s], LIMIT);
        fails_one_line(&out, 2, &["names_core.toml:4:10:", "core profile", kind]);
    }
}

#[test]
fn oversized_files_are_refused_without_reading_them() {
    let dir = scratch("special-size");
    // Sparse files: no disk is used, and nothing is read.
    let elf = dir.join("huge.elf");
    std::fs::File::create(&elf)
        .unwrap()
        .set_len((256 << 20) + 1)
        .unwrap();
    let out = trapscope_within(&["elf", elf.to_str().unwrap()], LIMIT);
    fails_one_line(&out, 2, &["huge.elf", "268435457 bytes", "256 MiB"]);
    let toml = dir.join("huge.toml");
    std::fs::File::create(&toml)
        .unwrap()
        .set_len((4 << 20) + 1)
        .unwrap();
    let out = trapscope_within(&["run", toml.to_str().unwrap()], LIMIT);
    fails_one_line(&out, 2, &["huge.toml", "4 MiB"]);
    let out = trapscope_within(
        &[
            "run",
            "scenarios/ras-trap-entry.toml",
            "--core",
            toml.to_str().unwrap(),
        ],
        LIMIT,
    );
    fails_one_line(&out, 2, &["huge.toml", "core profile", "4 MiB"]);
}
