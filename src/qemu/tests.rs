use super::*;

#[test]
fn versions_from_real_banners() {
    let v = parse_version(
        "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)\nCopyright (c) 2003-2022",
    )
    .unwrap();
    assert_eq!(v, Version::new(7, 2, 22));
    assert_eq!(
        parse_version("QEMU emulator version 8.2.2 (Debian 1:8.2.2+ds-0ubuntu1.4)").unwrap(),
        Version::new(8, 2, 2)
    );
    assert_eq!(
        parse_version("QEMU emulator version 9.0.50 (v9.0.0-1388-g80e8f06021)").unwrap(),
        Version::new(9, 0, 50)
    );
    assert_eq!(
        parse_version("QEMU emulator version 10.1").unwrap(),
        Version::new(10, 1, 0)
    );
    assert_eq!(v.to_string(), "7.2.22");
    for bad in [
        "",
        "QEMU emulator",
        "QEMU emulator version x.y",
        "QEMU emulator version 7",
        "version 7..2",
    ] {
        let e = parse_version(bad).unwrap_err().to_string();
        assert!(e.contains("cannot read a QEMU version"), "{bad:?}: {e}");
    }
    assert!(Version::new(7, 2, 22) < Version::new(8, 2, 0) && Version::new(8, 1, 9) < BARE_CPU);
}

#[test]
fn cpu_for_7_2_pins_what_the_spike_pinned() {
    let c = cpu_arg(&Version::new(7, 2, 22), None).unwrap();
    let words: Vec<&str> = c.split(',').collect();
    assert_eq!(words[0], "rv64");
    // The list of docs/decisions.md D12: sstc, h, zb*, svpbmt, svinval, svnapot off, priv 1.11.
    for w in [
        "sstc=off",
        "h=off",
        "zba=off",
        "zbb=off",
        "zbc=off",
        "zbs=off",
        "svpbmt=off",
        "svinval=off",
        "svnapot=off",
    ] {
        assert!(words.contains(&w), "{w} in {c}");
    }
    for w in [
        "Zihintpause=off",
        "Zfh=off",
        "Zfhmin=off",
        "v=off",
        "x-epmp=off",
        "mmu=on",
        "pmp=on",
        "Zicsr=on",
    ] {
        assert!(words.contains(&w), "{w} in {c}");
    }
    assert_eq!(words.last(), Some(&"priv_spec=v1.11.0"));
    // Each property once.
    let mut keys: Vec<&str> = words[1..]
        .iter()
        .map(|w| w.split('=').next().unwrap())
        .collect();
    keys.sort();
    let n = keys.len();
    keys.dedup();
    assert_eq!(keys.len(), n, "{c}");
}

#[test]
fn cpu_with_vector() {
    let c = cpu_arg(&Version::new(7, 2, 0), Some(256)).unwrap();
    assert!(c.contains(",v=on,vlen=256,elen=64,vext_spec=v1.0,"), "{c}");
    assert!(c.ends_with("priv_spec=v1.12.0"), "{c}");
    assert!(!c.contains("v=off") && !c.contains("Zve64f"), "{c}");
    for bad in [0, 64, 100, 2048] {
        let e = cpu_arg(&Version::new(7, 2, 0), Some(bad))
            .unwrap_err()
            .to_string();
        assert!(e.contains(&format!("VLEN {bad}")), "{e}");
    }
}

#[test]
fn cpu_by_version() {
    let e = cpu_arg(&Version::new(7, 1, 0), None)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "QEMU 7.1.0 is too old for trapscope snapshot: it needs QEMU 7.2.0 or newer"
    );
    let mid = cpu_arg(&Version::new(8, 1, 5), None).unwrap();
    assert!(mid.starts_with("rv64,") && !mid.contains("x-"), "{mid}");
    // 8.2 and later: rv64 with the newer extensions named and off; Svadu
    // and Svvptc only from 9.2, which has them (the string QEMU 10.0.2
    // boots Linux 6.12 with, checked by hand: see qemu.rs).
    let new = cpu_arg(&Version::new(8, 2, 0), None).unwrap();
    assert!(
        new.starts_with("rv64,h=off,") && new.contains("zicboz=off") && !new.contains("svadu"),
        "{new}"
    );
    assert!(
        new.contains("zihpm=off") && new.contains("v=off") && !new.contains("pmu-num"),
        "{new}"
    );
    let ten = cpu_arg(&Version::new(10, 0, 2), None).unwrap();
    assert_eq!(
        ten,
        "rv64,h=off,zba=off,zbb=off,zbc=off,zbs=off,sstc=off,svpbmt=off,svinval=off,svnapot=off,zicbom=off,zicbop=off,zicboz=off,zihintntl=off,zihintpause=off,zihpm=off,zawrs=off,zfa=off,svadu=off,svvptc=off,v=off,priv_spec=v1.11.0"
    );
    let new_v = cpu_arg(&Version::new(9, 2, 0), Some(128)).unwrap();
    assert!(
        new_v.contains("v=on,vlen=128") && !new_v.contains("v=off"),
        "{new_v}"
    );
}

fn launch() -> Launch {
    Launch {
        bin: "/usr/bin/qemu-system-riscv64".into(),
        kernel: "/k/Image".into(),
        initrd: Some("/k/initrd.cpio".into()),
        append: "console=ttyS0 no4lvl".into(),
        cpu: "rv64,h=off".into(),
        mem_mib: 256,
        gdb_socket: "/tmp/a,b/gdb.sock".into(),
        console: "/tmp/con.txt".into(),
        bios: None,
        extra: vec!["-d".into(), "guest_errors".into()],
    }
}

#[test]
fn launch_arguments() {
    let a = launch().args();
    let s = a.join(" ");
    assert!(
        s.starts_with("-M virt -m 256 -smp 1 -cpu rv64,h=off -nographic -monitor none"),
        "{s}"
    );
    assert!(
        s.contains("-chardev file,id=console0,path=/tmp/con.txt -serial chardev:console0"),
        "{s}"
    );
    // A comma in a path is doubled, QEMU's escape.
    assert!(s.contains("-S -chardev socket,path=/tmp/a,,b/gdb.sock,server=on,wait=off,id=gdb0 -gdb chardev:gdb0"), "{s}");
    assert!(!a.contains(&"-bios".to_string()));
    assert!(
        s.ends_with(
            "-kernel /k/Image -initrd /k/initrd.cpio -append console=ttyS0 no4lvl -d guest_errors"
        ),
        "{s}"
    );
    let mut l = launch();
    l.bios = Some("none".into());
    l.initrd = None;
    l.append.clear();
    let s = l.args().join(" ");
    assert!(s.contains("-bios none -kernel /k/Image -d"), "{s}");
    assert!(!s.contains("-initrd") && !s.contains("-append"), "{s}");
}

#[test]
fn command_line_quotes_for_a_shell() {
    let c = launch().command_line();
    assert!(c.starts_with("/usr/bin/qemu-system-riscv64 -M virt"), "{c}");
    assert!(c.contains("-append 'console=ttyS0 no4lvl'"), "{c}");
    let mut l = launch();
    l.append = "it's".into();
    assert!(l.command_line().contains(r"-append 'it'\''s'"));
}

#[test]
fn finding_the_binary() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("trapscope-find-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let empty = Some(OsString::from(&dir));
    let e = find_in(None, empty.clone()).unwrap_err().to_string();
    assert_eq!(
        e,
        "qemu-system-riscv64 not found: install it with 'apt-get install qemu-system-misc' (or set TRAPSCOPE_QEMU)"
    );
    assert_eq!(find_in(None, None).unwrap_err().to_string(), e);
    // A file that is not executable is not QEMU.
    let q = dir.join(BINARY);
    std::fs::write(&q, "#!/bin/sh\n").unwrap();
    assert!(find_in(None, empty.clone()).is_err());
    std::fs::set_permissions(&q, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = Some(std::env::join_paths(["/nonexistent".into(), dir.clone()]).unwrap());
    assert_eq!(find_in(None, path.clone()).unwrap(), q);
    // TRAPSCOPE_QEMU: a path, or a name looked up on PATH; empty is unset.
    assert_eq!(find_in(Some(q.clone().into()), None).unwrap(), q);
    assert_eq!(find_in(Some(BINARY.into()), path.clone()).unwrap(), q);
    assert_eq!(find_in(Some("".into()), path.clone()).unwrap(), q);
    let e = find_in(Some(dir.join("nope").into()), path)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("TRAPSCOPE_QEMU=")
            && e.contains("nope is not an executable file")
            && e.contains("qemu-system-misc"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
