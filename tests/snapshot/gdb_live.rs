//! trapscope's GDB client against a live qemu-system-riscv64 (7.2 here).
//! Skips with a printed reason when QEMU is absent; CI sets
//! TRAPSCOPE_REQUIRE_QEMU=1, which makes its absence a failure.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use trapscope::qemu::gdb::{Gdb, RiscvRegs};

const QEMU: &str = "qemu-system-riscv64";

/// `addi a0,x0,42; addi a1,x0,7; j .` at 0x80000000, hand-encoded (I-type:
/// imm[11:0] rs1 funct3 rd 0010011; JAL offset 0 to x0 is 0x0000006f).
const PROG: [u32; 3] = [0x02a0_0513, 0x0070_0593, 0x0000_006f];

struct Qemu {
    child: Child,
    dir: PathBuf,
}

impl Drop for Qemu {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

use crate::snapshot_util;

fn start(tag: &str) -> (Qemu, PathBuf) {
    let dir = std::env::temp_dir().join(format!("trapscope-gdb-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("prog.bin");
    let bytes: Vec<u8> = PROG.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&prog, bytes).unwrap();
    let sock = dir.join("gdb.sock");
    let child = Command::new(QEMU)
        .args(["-M", "virt", "-S", "-nographic", "-bios", "none"])
        .args(["-monitor", "none", "-serial", "none", "-display", "none"])
        .args([
            "-cpu",
            "rv64,sstc=off,h=off,zba=off,zbb=off,zbc=off,zbs=off,svpbmt=off,svinval=off,\
             svnapot=off,Zihintpause=off,Zfh=off,Zfhmin=off,priv_spec=v1.11.0",
        ])
        .arg("-chardev")
        .arg(format!(
            "socket,path={},server=on,wait=off,id=g0",
            sock.display()
        ))
        .args(["-gdb", "chardev:g0"])
        .arg("-device")
        .arg(format!("loader,file={},addr=0x80000000", prog.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    (Qemu { child, dir }, sock)
}

#[test]
fn breakpoint_registers_memory_and_monitor_on_live_qemu() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let (mut qemu, sock) = start("live");
    let mut g = Gdb::connect_unix(&sock, Duration::from_secs(10)).unwrap();
    g.handshake().unwrap();
    let map = g.registers().unwrap();
    let rv = RiscvRegs::from_map(&map).unwrap();
    assert_eq!(rv.x[10], map.get("a0").unwrap().regnum);

    // QEMU virt's reset vector, machine mode, hart 0.
    assert_eq!(g.read_reg_u64(&map, "pc").unwrap(), 0x1000);
    assert_eq!(g.read_reg_u64(&map, "priv").unwrap(), 3);
    assert_eq!(g.read_reg_u64(&map, "mhartid").unwrap(), 0);
    // misa of rv64imafdc with S and U: MXL=2 and letters A C D F I M S U.
    let letters = "acdfimsu".bytes().fold(0u64, |m, c| m | 1 << (c - b'a'));
    assert_eq!(g.read_reg_u64(&map, "misa").unwrap(), (2 << 62) | letters);
    // The same CSR through its number and the base found from the map.
    let by_number = rv.csr_regnum(0x301).unwrap();
    let le = g.read_reg(by_number).unwrap();
    assert_eq!(
        u64::from_le_bytes(le.try_into().unwrap()),
        (2 << 62) | letters
    );

    // One step moves past the first (4-byte) reset-vector instruction.
    g.step().unwrap();
    assert_eq!(g.read_reg_u64(&map, "pc").unwrap(), 0x1004);

    // The program is where the loader put it.
    let mem = g.read_mem(0x8000_0000, 12).unwrap();
    let want: Vec<u8> = PROG.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(mem, want);

    // Run to `j .`: both addi instructions have retired.
    g.set_breakpoint(0x8000_0008, 4).unwrap();
    let stop = g
        .cont_until_stop(Instant::now() + Duration::from_secs(20), &mut || true)
        .unwrap();
    assert!(!stop.exited(), "{stop:?}");
    assert_eq!(g.read_reg_u64(&map, "pc").unwrap(), 0x8000_0008);
    assert_eq!(g.read_reg_u64(&map, "a0").unwrap(), 42);
    assert_eq!(g.read_reg_u64(&map, "a1").unwrap(), 7);
    g.clear_breakpoint(0x8000_0008, 4).unwrap();

    // Writing a register, then reading it back.
    g.write_reg(rv.x[12], &0xdead_beefu64.to_le_bytes())
        .unwrap();
    assert_eq!(g.read_reg_u64(&map, "a2").unwrap(), 0xdead_beef);

    // The monitor sees the same memory: the program's first two words.
    let xp = g.monitor("xp /1gx 0x80000000").unwrap();
    assert!(xp.contains("0x0070059302a00513"), "{xp:?}");
    let info = g.monitor("info registers").unwrap();
    assert!(
        info.contains("mhartid") && info.contains("80000008"),
        "{info}"
    );

    // With the breakpoint gone the guest spins in `j .`: continuing must
    // give TimedOut by the deadline, after interrupting it.
    let t = Instant::now();
    let e = g
        .cont_until_stop(t + Duration::from_millis(500), &mut || true)
        .unwrap_err();
    assert!(
        matches!(e, trapscope::qemu::gdb::GdbError::TimedOut { .. }),
        "{e}"
    );
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(g.read_reg_u64(&map, "pc").unwrap(), 0x8000_0008);

    g.kill();
    // QEMU exits on `k`.
    let end = Instant::now() + Duration::from_secs(10);
    while qemu.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < end, "QEMU did not exit after k");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn connect_gives_up_when_no_socket_appears() {
    let path = std::env::temp_dir().join(format!("trapscope-gdb-none-{}.sock", std::process::id()));
    let t = Instant::now();
    let e = Gdb::connect_unix(&path, Duration::from_millis(300))
        .err()
        .unwrap();
    assert!(t.elapsed() >= Duration::from_millis(300));
    let msg = e.to_string();
    assert!(
        msg.contains("cannot connect") && !msg.contains('\n'),
        "{msg}"
    );
}
