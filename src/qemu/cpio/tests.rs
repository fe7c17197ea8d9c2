use super::*;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// One member as read back by `parse`: (path, mode, nlink, rdev, data).
type Member = (String, u32, u32, (u32, u32), Vec<u8>);

/// An independent reader of the newc layout (header fields by offset), so
/// the test checks the bytes rather than trusting the writer's own helpers.
fn parse(mut b: &[u8]) -> Vec<Member> {
    let mut out = Vec::new();
    let total = b.len();
    loop {
        assert_eq!(&b[..6], b"070701", "magic at offset {}", total - b.len());
        let field = |i: usize| {
            let s = std::str::from_utf8(&b[6 + 8 * i..14 + 8 * i]).unwrap();
            u32::from_str_radix(s, 16).unwrap()
        };
        let (mode, nlink, mtime, size) = (field(1), field(4), field(5), field(6));
        assert_eq!((field(2), field(3), mtime, field(12)), (0, 0, 0, 0));
        let rdev = (field(9), field(10));
        let namesize = field(11) as usize;
        let name = &b[110..110 + namesize];
        assert_eq!(name.last(), Some(&0), "name ends in NUL");
        let name = String::from_utf8(name[..namesize - 1].to_vec()).unwrap();
        let data_at = (110 + namesize).next_multiple_of(4);
        assert!(b[110 + namesize..data_at].iter().all(|&x| x == 0));
        let data = b[data_at..data_at + size as usize].to_vec();
        let next = (data_at + size as usize).next_multiple_of(4);
        b = &b[next..];
        if name == "TRAILER!!!" {
            assert!(b.is_empty(), "nothing after the trailer");
            return out;
        }
        out.push((name, mode, nlink, rdev, data));
    }
}

fn sample() -> Vec<Entry> {
    vec![
        Entry::dir("dev", 0o755),
        Entry::char_dev("dev/console", 0o600, 5, 1),
        Entry::dir("sbin", 0o755),
        // Sizes 0..=5 cover every padding case; the odd name lengths too.
        Entry::file("init", 0o755, b"\x7fELF\x02\x01\x01 not really".to_vec()),
        Entry::file("e", 0o644, Vec::new()),
        Entry::file("ab", 0o644, b"x".to_vec()),
        Entry::file("abc", 0o644, b"xy".to_vec()),
        Entry::file("sbin/abcd", 0o644, b"xyz".to_vec()),
        Entry::file("sbin/five5", 0o600, b"12345".to_vec()),
    ]
}

#[test]
fn own_parser_reads_back_every_member() {
    let entries = sample();
    let bytes = newc(&entries);
    assert_eq!(bytes.len() % 4, 0);
    let back = parse(&bytes);
    assert_eq!(back.len(), entries.len());
    for (e, (path, mode, nlink, rdev, data)) in entries.iter().zip(&back) {
        assert_eq!(&e.path, path);
        assert_eq!(e.mode, *mode);
        assert_eq!(*nlink, if e.mode & S_IFMT == S_IFDIR { 2 } else { 1 });
        assert_eq!(e.rdev.unwrap_or((0, 0)), *rdev);
        assert_eq!(&e.data, data);
    }
    // dev/console is a character device 5:1 (Linux's devices.txt: /dev/console).
    assert_eq!(back[1].1 & S_IFMT, S_IFCHR);
    assert_eq!(back[1].3, (5, 1));
}

#[test]
fn output_is_deterministic_and_data_of_a_directory_is_ignored() {
    assert_eq!(newc(&sample()), newc(&sample()));
    let mut d = Entry::dir("d", 0o755);
    d.data = b"ignored".to_vec();
    assert_eq!(newc(&[d]), newc(&[Entry::dir("d", 0o755)]));
}

#[test]
fn initramfs_holds_the_console_and_the_init() {
    let back = parse(&initramfs(b"ELF bytes".to_vec()));
    let names: Vec<&str> = back.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(names, ["dev", "dev/console", "init"]);
    assert_eq!((back[1].1, back[1].3), (S_IFCHR | 0o600, (5, 1)));
    assert_eq!(
        (back[2].1, back[2].4.as_slice()),
        (S_IFREG | 0o755, &b"ELF bytes"[..])
    );
}

#[test]
fn empty_archive_is_just_the_trailer() {
    let b = newc(&[]);
    // 110-byte header + "TRAILER!!!\0" (11) = 121, padded to 124.
    assert_eq!(b.len(), 124);
    assert!(parse(&b).is_empty());
}

fn have_cpio() -> bool {
    Command::new("cpio").arg("--version").output().is_ok()
}

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("trapscope-cpio-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run_cpio(args: &[&str], dir: &std::path::Path, input: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new("cpio")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "cpio {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn gnu_cpio_lists_and_extracts_the_archive() {
    if !have_cpio() {
        eprintln!("skipping: GNU cpio not installed");
        return;
    }
    let entries = sample();
    let bytes = newc(&entries);
    let dir = temp("x");
    let list = run_cpio(&["-it", "--quiet"], &dir, &bytes);
    let names: Vec<String> = String::from_utf8(list.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let want: Vec<String> = entries.iter().map(|e| e.path.clone()).collect();
    assert_eq!(names, want);

    // -H newc makes cpio insist on the format (it would guess otherwise).
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let mut args = vec![
        "-i",
        "-d",
        "--quiet",
        "-H",
        "newc",
        "--no-absolute-filenames",
    ];
    if !is_root {
        // mknod needs root: extract everything but the device.
        args.extend(["--nonmatching", "dev/console"]);
    }
    run_cpio(&args, &dir, &bytes);
    for e in &entries {
        let p = dir.join(&e.path);
        let meta = std::fs::symlink_metadata(&p).unwrap();
        use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
        match e.mode & S_IFMT {
            S_IFDIR => assert!(meta.is_dir(), "{}", e.path),
            S_IFREG => {
                assert!(meta.is_file(), "{}", e.path);
                assert_eq!(std::fs::read(&p).unwrap(), e.data, "{}", e.path);
                assert_eq!(meta.permissions().mode() & 0o777, e.mode & 0o777);
            }
            S_IFCHR if is_root => {
                assert!(meta.file_type().is_char_device(), "{}", e.path);
                // Linux's dev_t: major in bits 8..20, minor in 0..8 (small numbers).
                assert_eq!(meta.rdev(), (5 << 8) | 1);
            }
            _ => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
