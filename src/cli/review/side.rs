//! One side of a review (BEFORE or AFTER): the kernel build it names, its
//! build id, and the snapshot `Config` of each init, with the same
//! defaults as `trapscope snapshot`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::cache::KeyParts;
use crate::cli::snapshot::{INITS, TICK_INIT, default_marker};
use crate::qemu::own_init;
use crate::qemu::take::{self, Config, Guest};
use crate::snapshot::format;

/// A side's guest: a Linux build, or (`--elf`) a bare-metal ELF.
#[derive(Clone, Debug)]
pub struct Side {
    pub arg: PathBuf,
    pub kind: Kind,
    /// The vmlinux's GNU build id, or the ELF's `fnv1a64` (hex).
    pub id: String,
    /// A kernel built with V (`groups::has_v`).
    pub vector: bool,
}

#[derive(Clone, Debug)]
pub enum Kind {
    Linux { image: PathBuf, vmlinux: PathBuf },
    Elf(PathBuf),
}

/// The `Image` and `vmlinux` in `dir`: a kernel build directory
/// (`arch/riscv/boot/Image`, `vmlinux` at the top), or a directory holding
/// both; one line naming what is missing otherwise.
pub fn find_build(dir: &Path) -> Result<(PathBuf, PathBuf), String> {
    if !dir.is_dir() {
        let what = match std::fs::metadata(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => "no such directory",
            _ => "not a directory",
        };
        return Err(format!(
            "{}: {what}: give a kernel build directory (with vmlinux and arch/riscv/boot/Image) or a directory holding Image and vmlinux",
            dir.display()
        ));
    }
    let vmlinux = dir.join("vmlinux");
    let image = [dir.join("arch/riscv/boot/Image"), dir.join("Image")]
        .into_iter()
        .find(|p| p.is_file());
    match (image, vmlinux.is_file()) {
        (Some(i), true) => Ok((i, vmlinux)),
        (None, true) => Err(format!(
            "{}: no arch/riscv/boot/Image and no Image (build the kernel's Image, or copy it beside vmlinux)",
            dir.display()
        )),
        (Some(_), false) => Err(format!(
            "{}: no vmlinux (the build's ELF, for its build id and symbols)",
            dir.display()
        )),
        (None, false) => Err(format!(
            "{}: no vmlinux and no Image (nor arch/riscv/boot/Image): not a kernel build directory",
            dir.display()
        )),
    }
}

fn read(path: &Path, what: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{} ({what}): {e}", path.display()))
}

impl Side {
    pub fn linux(dir: &Path) -> Result<Side, String> {
        let (image, vmlinux) = find_build(dir)?;
        let bytes = read(&vmlinux, "vmlinux")?;
        let vector = super::groups::has_v(&bytes);
        let id = crate::snapshot::variant::build_id(&bytes).ok_or_else(|| {
            format!(
                "{}: has no GNU build id (link with --build-id, as the kernel's Makefile does)",
                vmlinux.display()
            )
        })?;
        Ok(Side {
            arg: dir.to_path_buf(),
            kind: Kind::Linux { image, vmlinux },
            id,
            vector,
        })
    }

    pub fn elf(file: &Path) -> Result<Side, String> {
        let bytes = read(file, "bare-metal ELF")?;
        Ok(Side {
            arg: file.to_path_buf(),
            kind: Kind::Elf(file.to_path_buf()),
            id: format!("{:016x}", format::fnv1a64(&bytes)),
            vector: false,
        })
    }
}

/// An init as `--init` gives it: one of trapscope's, or the user's file.
#[derive(Clone, Debug)]
pub struct InitChoice {
    /// The name shown and used in variant names (a file's stem).
    pub name: String,
    pub path: PathBuf,
    /// One of trapscope's (keeps its iteration count in x9).
    pub shipped: bool,
}

pub fn init_choice(arg: &str, marker: &str, loop_symbol: &str) -> Result<InitChoice, String> {
    if own_init::names_a_file(arg) {
        let path = PathBuf::from(arg);
        own_init::check(&path, marker, loop_symbol)
            .map_err(|e| format!("--init {}: {e}", path.display()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "init".into());
        return Ok(InitChoice {
            name,
            path,
            shipped: false,
        });
    }
    if !INITS.contains(&arg) {
        return Err(format!(
            "--init {arg}: trapscope's inits are {}; your own is a path (./NAME or NAME.elf)",
            INITS.join(", ")
        ));
    }
    Ok(InitChoice {
        name: arg.to_string(),
        path: crate::project_dir()
            .join("assets/init")
            .join(format!("{arg}.elf")),
        shipped: true,
    })
}

/// The marker and loop symbols asked for, else the defaults of `snapshot`.
pub struct Symbols {
    pub at: u64,
    pub marker: Option<String>,
    pub loop_symbol: String,
}

/// The snapshot of `side` with `init` (None for a bare-metal ELF), and
/// its cache key's parts. The options not given are `trapscope
/// snapshot`'s defaults: 128 MiB, no extra command line,
/// 120 s to reach the marker.
pub fn config(
    side: &Side,
    init: Option<&InitChoice>,
    sym: &Symbols,
    vlen: Option<u32>,
) -> Result<(Config, KeyParts), String> {
    let init_name = init.map_or_else(|| "elf".to_string(), |i| i.name.clone());
    let marker = sym
        .marker
        .clone()
        .unwrap_or_else(|| default_marker(&init_name).to_string());
    let (guest, init_hash) = match (&side.kind, init) {
        (Kind::Linux { image, vmlinux }, Some(i)) => (
            Guest::Linux {
                image: image.clone(),
                vmlinux: vmlinux.clone(),
                init: i.path.clone(),
                counted: i.shipped && i.name != TICK_INIT,
            },
            format::fnv1a64(&read(&i.path, "init")?),
        ),
        (Kind::Elf(p), _) => (Guest::Elf(p.clone()), 0),
        (Kind::Linux { .. }, None) => return Err("a Linux kernel needs an init".into()),
    };
    let cfg = Config {
        guest,
        at: sym.at,
        ecall_symbol: marker.clone(),
        loop_symbol: sym.loop_symbol.clone(),
        vlen,
        mem_mib: take::DEFAULT_MEM_MIB,
        append: String::new(),
        boot_timeout: Duration::from_secs(120),
        ticks: init_name == TICK_INIT,
        // QEMU on its counted clock, so that `verify` can boot it again.
        reproducible: true,
    };
    let key = KeyParts {
        guest: side.id.clone(),
        init_name,
        init_hash,
        at: cfg.at,
        mem_mib: cfg.mem_mib,
        append: cfg.append.clone(),
        marker,
        loop_symbol: cfg.loop_symbol.clone(),
        vlen,
    };
    Ok((cfg, key))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("trapscope-side-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_build_dir_or_a_flat_dir() {
        let d = tmp("build");
        std::fs::create_dir_all(d.join("arch/riscv/boot")).unwrap();
        std::fs::write(d.join("arch/riscv/boot/Image"), b"i").unwrap();
        std::fs::write(d.join("vmlinux"), b"v").unwrap();
        let (i, v) = find_build(&d).unwrap();
        assert_eq!(i, d.join("arch/riscv/boot/Image"));
        assert_eq!(v, d.join("vmlinux"));
        let f = tmp("flat");
        std::fs::write(f.join("Image"), b"i").unwrap();
        std::fs::write(f.join("vmlinux"), b"v").unwrap();
        assert_eq!(find_build(&f).unwrap().0, f.join("Image"));
        let _ = std::fs::remove_dir_all(&d);
        let _ = std::fs::remove_dir_all(&f);
    }

    #[test]
    fn what_is_missing_is_named() {
        let d = tmp("missing");
        assert!(
            find_build(&d)
                .unwrap_err()
                .contains("no vmlinux and no Image")
        );
        std::fs::write(d.join("vmlinux"), b"v").unwrap();
        assert!(
            find_build(&d)
                .unwrap_err()
                .contains("no arch/riscv/boot/Image")
        );
        std::fs::remove_file(d.join("vmlinux")).unwrap();
        std::fs::write(d.join("Image"), b"i").unwrap();
        assert!(find_build(&d).unwrap_err().contains("no vmlinux"));
        assert!(
            find_build(&d.join("Image"))
                .unwrap_err()
                .contains("not a directory")
        );
        assert!(
            find_build(&d.join("nope"))
                .unwrap_err()
                .contains("nope: no such directory")
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn pagefaults_marker_is_its_store() {
        let side = Side {
            arg: "x".into(),
            kind: Kind::Linux {
                image: "I".into(),
                vmlinux: "v".into(),
            },
            id: "ab".into(),
            vector: false,
        };
        let sym = Symbols {
            at: 100,
            marker: None,
            loop_symbol: "init_loop".into(),
        };
        let pf = init_choice("pagefault", "init_touch", "init_loop").unwrap();
        let (cfg, key) = config(&side, Some(&pf), &sym, None).unwrap();
        assert_eq!(cfg.ecall_symbol, "init_touch");
        assert_eq!(key.marker, "init_touch");
        let g = init_choice("getppid", "init_ecall", "init_loop").unwrap();
        let (_, k2) = config(&side, Some(&g), &sym, None).unwrap();
        assert_ne!(key.key(), k2.key());
        assert!(
            init_choice("nope", "m", "l")
                .unwrap_err()
                .contains("pagefault")
        );
    }
}
