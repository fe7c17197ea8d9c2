use super::*;
use std::path::Path;
use std::process::Command;

fn qemu_dtb() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fdt/qemu-7.2-virt.dtb"))
        .unwrap()
}

/// A test-only DTB writer (header, structure and strings blocks as the spec
/// lays them out), for blobs QEMU 7.2 cannot produce and for corrupting.
enum T<'a> {
    Begin(&'a str),
    End,
    Prop(&'a str, &'a [u8]),
    Nop,
}

fn build(tokens: &[T]) -> Vec<u8> {
    let mut st = Vec::new();
    let mut strings: Vec<u8> = Vec::new();
    let align = |v: &mut Vec<u8>| v.resize(v.len().next_multiple_of(4), 0);
    for t in tokens {
        match t {
            T::Begin(n) => {
                st.extend(1u32.to_be_bytes());
                st.extend(n.as_bytes());
                st.push(0);
                align(&mut st);
            }
            T::End => st.extend(2u32.to_be_bytes()),
            T::Prop(n, v) => {
                let off = strings.len() as u32;
                strings.extend(n.as_bytes());
                strings.push(0);
                st.extend(3u32.to_be_bytes());
                st.extend((v.len() as u32).to_be_bytes());
                st.extend(off.to_be_bytes());
                st.extend(*v);
                align(&mut st);
            }
            T::Nop => st.extend(4u32.to_be_bytes()),
        }
    }
    st.extend(9u32.to_be_bytes());
    let off_rsv = 40u32;
    let off_struct = off_rsv + 16; // one empty reserve-map entry (the terminator)
    let off_strings = off_struct + st.len() as u32;
    let total = off_strings + strings.len() as u32;
    let mut b = Vec::new();
    for w in [
        0xd00dfeed,
        total,
        off_struct,
        off_strings,
        off_rsv,
        17,
        16,
        0,
        strings.len() as u32,
        st.len() as u32,
    ] {
        b.extend(u32::to_be_bytes(w));
    }
    b.extend([0u8; 16]);
    b.extend(st);
    b.extend(strings);
    b
}

fn riscv_cpu(isa: &[u8], exts: Option<&[u8]>) -> Vec<u8> {
    let mut t = vec![
        T::Begin(""),
        T::Prop("compatible", b"test\0"),
        T::Begin("cpus"),
        T::Nop,
        T::Begin("cpu-map"),
        T::End,
        T::Begin("cpu@0"),
        T::Prop("device_type", b"cpu\0"),
        T::Prop("riscv,isa", isa),
        T::Prop("mmu-type", b"riscv,sv39\0"),
    ];
    if let Some(e) = exts {
        t.push(T::Prop("riscv,isa-extensions", e));
    }
    t.extend([
        T::End,
        T::Begin("cpu@1"),
        T::Prop("device_type", b"cpu\0"),
        T::Prop("riscv,isa", b"rv64i\0"),
        T::End,
        T::End,
        T::End,
    ]);
    build(&t)
}

#[test]
fn qemu_7_2_blob_gives_the_pinned_isa() {
    // Values read from this file by `dtc -I dtb -O dts` (device-tree-compiler 1.6.1).
    let isa = cpu_isa(&qemu_dtb()).unwrap();
    assert_eq!(isa.isa, "rv64imafdc_zicsr_zifencei");
    assert_eq!(isa.extensions, None);
    assert_eq!(isa.mmu_type.as_deref(), Some("riscv,sv48"));
    let model = property(&qemu_dtb(), "/", "model").unwrap().unwrap();
    assert_eq!(string(&model, "model").unwrap(), "riscv-virtio,qemu");
    let uart = property(&qemu_dtb(), "/soc/serial@", "compatible")
        .unwrap()
        .unwrap();
    assert_eq!(string(&uart, "compatible").unwrap(), "ns16550a");
    assert_eq!(
        property(&qemu_dtb(), "/cpus/cpu@0", "no-such").unwrap(),
        None
    );
}

/// Every node path, property name and value agrees with `fdtget` (dtc's
/// libfdt-based tool), whenever device-tree-compiler is installed.
#[test]
fn qemu_7_2_blob_matches_fdtget() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fdt/qemu-7.2-virt.dtb");
    if Command::new("fdtget").arg("--help").output().is_err() {
        eprintln!("skipping: fdtget (device-tree-compiler) not installed");
        return;
    }
    let fdtget = |args: &[&str]| {
        let o = Command::new("fdtget")
            .arg(&file)
            .args(args)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "fdtget {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    let all = nodes(&qemu_dtb()).unwrap();
    assert!(
        all.len() > 20,
        "the virt board has cpus, memory, soc and its devices"
    );
    for n in &all {
        let names: Vec<&str> = n.props.iter().map(|p| p.name.as_str()).collect();
        let theirs = fdtget(&["-p", &n.path]);
        assert_eq!(
            names,
            theirs.lines().collect::<Vec<_>>(),
            "properties of {}",
            n.path
        );
        let parent = |c: &str| match c.rsplit_once('/') {
            Some(("", _)) if c != "/" => Some("/".to_string()),
            Some((p, _)) if c != "/" => Some(p.to_string()),
            _ => None,
        };
        let children: Vec<&str> = all
            .iter()
            .filter(|c| parent(&c.path).as_deref() == Some(n.path.as_str()))
            .filter_map(|c| c.path.rsplit('/').next())
            .collect();
        let theirs = fdtget(&["-l", &n.path]);
        let mut want: Vec<&str> = theirs.lines().collect();
        let mut got = children.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want, "children of {}", n.path);
        for p in &n.props {
            let hex: Vec<String> = p.value.iter().map(|b| format!("{b:x}")).collect();
            let theirs = fdtget(&["-t", "bx", &n.path, &p.name]);
            assert_eq!(hex.join(" "), theirs.trim_end(), "{} {}", n.path, p.name);
        }
    }
}

#[test]
fn newer_qemu_extension_list_is_read() {
    let b = riscv_cpu(b"rv64imafdc_zicsr\0", Some(b"i\0m\0a\0zicsr\0zicntr\0"));
    let isa = cpu_isa(&b).unwrap();
    assert_eq!(isa.isa, "rv64imafdc_zicsr");
    assert_eq!(isa.extensions.unwrap(), ["i", "m", "a", "zicsr", "zicntr"]);
    assert_eq!(isa.mmu_type.as_deref(), Some("riscv,sv39"));
    let paths: Vec<String> = nodes(&b).unwrap().into_iter().map(|n| n.path).collect();
    assert_eq!(
        paths,
        ["/", "/cpus", "/cpus/cpu-map", "/cpus/cpu@0", "/cpus/cpu@1"]
    );
}

#[test]
fn bad_property_values_are_errors() {
    let no_nul = riscv_cpu(b"rv64i", None);
    assert!(
        cpu_isa(&no_nul)
            .unwrap_err()
            .to_string()
            .contains("riscv,isa")
    );
    let two = riscv_cpu(b"rv64i\0rv64g\0", None);
    assert!(
        cpu_isa(&two)
            .unwrap_err()
            .to_string()
            .contains("single string")
    );
    let utf = riscv_cpu(b"rv64\xff\0", None);
    assert!(cpu_isa(&utf).unwrap_err().to_string().contains("UTF-8"));
    let nocpu = build(&[T::Begin(""), T::Begin("cpus"), T::End, T::End]);
    assert!(
        cpu_isa(&nocpu)
            .unwrap_err()
            .to_string()
            .contains("no cpu node")
    );
}

fn set_word(b: &mut [u8], word: usize, v: u32) {
    b[4 * word..4 * word + 4].copy_from_slice(&v.to_be_bytes());
}

#[test]
fn hostile_headers_are_errors() {
    let good = qemu_dtb();
    assert!(nodes(&[]).unwrap_err().to_string().contains("shorter than"));
    assert!(
        nodes(&good[..39])
            .unwrap_err()
            .to_string()
            .contains("shorter than")
    );
    let mut b = good.clone();
    b[0] = 0;
    assert!(nodes(&b).unwrap_err().to_string().contains("magic"));
    let mut b = good.clone();
    set_word(&mut b, 5, 16);
    assert!(nodes(&b).unwrap_err().to_string().contains("version 16"));
    let mut b = good.clone();
    set_word(&mut b, 6, 18);
    assert!(nodes(&b).unwrap_err().to_string().contains("version"));
    let mut b = good.clone();
    set_word(&mut b, 1, good.len() as u32 + 1);
    assert!(nodes(&b).unwrap_err().to_string().contains("header says"));
    for (word, what) in [
        (2, "structure"),
        (9, "structure"),
        (3, "strings"),
        (8, "strings"),
    ] {
        for v in [u32::MAX, good.len() as u32, 0xffff_fff0] {
            let mut b = good.clone();
            set_word(&mut b, word, v);
            let e = nodes(&b).unwrap_err().to_string();
            assert!(e.contains(what), "word {word} = {v:#x}: {e}");
        }
    }
}

#[test]
fn hostile_structure_blocks_are_errors() {
    let end_early = build(&[T::Begin(""), T::Begin("a")]);
    assert!(
        nodes(&end_early)
            .unwrap_err()
            .to_string()
            .contains("still open")
    );
    let extra_end = build(&[T::Begin(""), T::End, T::End]);
    assert!(
        nodes(&extra_end)
            .unwrap_err()
            .to_string()
            .contains("closes no node")
    );
    let two_roots = build(&[T::Begin(""), T::End, T::Begin(""), T::End]);
    assert!(
        nodes(&two_roots)
            .unwrap_err()
            .to_string()
            .contains("second root")
    );
    let named_root = build(&[T::Begin("x"), T::End]);
    assert!(
        nodes(&named_root)
            .unwrap_err()
            .to_string()
            .contains("root node is named")
    );
    let empty = build(&[]);
    assert!(nodes(&empty).unwrap_err().to_string().contains("no root"));
    let orphan = build(&[T::Prop("p", b"\0")]);
    assert!(
        nodes(&orphan)
            .unwrap_err()
            .to_string()
            .contains("outside every node")
    );
    let mut deep = vec![T::Begin("")];
    deep.extend((0..100).map(|_| T::Begin("n")));
    assert!(
        nodes(&build(&deep))
            .unwrap_err()
            .to_string()
            .contains("deeper")
    );

    // A property whose length runs past the block, and a name offset past the strings.
    let good = build(&[T::Begin(""), T::Prop("p", b"abcd"), T::End]);
    let prop_len_word = (40 + 16 + 8 + 4) / 4; // header, reserve map, BEGIN_NODE "" (8), PROP token
    let mut b = good.clone();
    set_word(&mut b, prop_len_word, 0xffff_fff0);
    assert!(nodes(&b).unwrap_err().to_string().contains("runs past"));
    let mut b = good.clone();
    set_word(&mut b, prop_len_word + 1, 0x1000);
    assert!(nodes(&b).unwrap_err().to_string().contains("property name"));
    let mut b = good.clone();
    set_word(&mut b, prop_len_word - 1, 7);
    assert!(
        nodes(&b)
            .unwrap_err()
            .to_string()
            .contains("unknown token 0x7")
    );
}

/// Every truncation and every single-byte corruption of the QEMU blob gives
/// a result, never a panic.
#[test]
fn every_truncation_and_byte_flip_is_handled() {
    let good = qemu_dtb();
    for n in 0..good.len() {
        let mut b = good[..n].to_vec();
        // Keep the header's totalsize honest so the walk itself is exercised.
        if n >= 8 {
            set_word(&mut b, 1, n as u32);
        }
        assert!(nodes(&b).is_err() || n == good.len());
    }
    for i in 0..good.len() {
        for x in [0x01u8, 0x80, 0xff] {
            let mut b = good.clone();
            b[i] ^= x;
            let _ = cpu_isa(&b);
        }
    }
}
