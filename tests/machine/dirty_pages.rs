//! Checkpoints compare only the RAM pages that may have changed since the
//! last one (machine/dirty.rs). The writes no memory hook sees are the A/D
//! bits unicorn's page-table walk sets in a PTE (priv spec §4.3.1: with
//! hardware A/D updating, a walk sets A on any access and D on a store). So
//! here every leaf PTE of the Sv39 minikernel loses its A and D bits, the
//! run goes on (the walk sets them again), and a restore must put back the
//! tables of the checkpoint, byte for byte.

use std::path::Path;
use std::rc::Rc;

use trapscope::machine::{Machine, Program};
use trapscope::scenario::Scenario;
use trapscope::session::stats::Stats;
use trapscope::session::{self, RunOpts};

const PTE_V: u64 = 1;
const PTE_RWX: u64 = 0xe;
const PTE_A: u64 = 64;
const PTE_D: u64 = 128;

fn sv39_machine() -> Machine<Stats> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut s = Scenario::load(&root.join("scenarios/ras-trap-entry.toml")).unwrap();
    let p = Rc::new(Program::load(&root.join("assets/guest/minikernel-sv39.elf")).unwrap());
    s.variants[0].program = p;
    let o = RunOpts {
        core: s.cores.first().cloned(),
        ..RunOpts::default()
    };
    session::build_machine(&s, &s.variants[0], &o).unwrap()
}

fn read_phys(ram: &[(u64, Vec<u8>)], pa: u64) -> u64 {
    let (start, bytes) = ram
        .iter()
        .find(|(s, b)| (*s..*s + b.len() as u64).contains(&pa))
        .unwrap_or_else(|| panic!("{pa:#x} is not RAM"));
    let off = (pa - start) as usize;
    u64::from_le_bytes(bytes[off..off + 8].try_into().unwrap())
}

/// Physical addresses of every valid leaf PTE under `satp` (Sv39).
fn leaves(ram: &[(u64, Vec<u8>)], satp: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut todo = vec![((satp & ((1 << 44) - 1)) << 12, 2)];
    while let Some((table, level)) = todo.pop() {
        for i in 0..512 {
            let at = table + i * 8;
            let pte = read_phys(ram, at);
            if pte & PTE_V == 0 {
                continue;
            }
            if pte & PTE_RWX != 0 {
                out.push(at);
            } else if level > 0 {
                todo.push((((pte >> 10) & ((1 << 44) - 1)) << 12, level - 1));
            }
        }
    }
    out
}

fn same_ram(m: &Machine<Stats>, c: &trapscope::machine::checkpoint::Checkpoint<Stats>) -> bool {
    m.ram_contents().iter().all(|(start, bytes)| {
        bytes
            .chunks(4096)
            .enumerate()
            .all(|(i, page)| c.mem().page(start + i as u64 * 4096) == Some(page))
    })
}

#[test]
fn a_d_bits_set_by_the_walk_are_put_back_by_a_restore() {
    let mut m = sv39_machine();
    m.track_writes().unwrap();
    // Past the boot's paging set-up, into the syscall loop.
    session::run_to(&mut m, 20_000);
    let satp = m.csr(0x180).unwrap();
    assert_eq!(satp >> 60, 8, "the minikernel runs with Sv39 on");
    let _ = m.checkpoint().unwrap();
    let ram = m.ram_contents();
    let ptes = leaves(&ram, satp);
    assert!(!ptes.is_empty());
    for &at in &ptes {
        let pte = read_phys(&ram, at);
        assert_eq!(
            pte & (PTE_A | PTE_D),
            PTE_A | PTE_D,
            "the minikernel sets A and D"
        );
        // Tables are identity-mapped in the kernel's megapages.
        assert!(
            m.write_u64(at, pte & !(PTE_A | PTE_D)),
            "write the PTE at {at:#x}"
        );
    }
    let c = m.checkpoint().unwrap();
    // A restore flushes the TLB, so the next accesses walk the tables.
    m.restore(&c).unwrap();
    session::run_to(&mut m, 40_000);
    let now = m.ram_contents();
    assert!(
        ptes.iter()
            .any(|&at| read_phys(&now, at) & (PTE_A | PTE_D) != 0),
        "the walk set A/D bits again (else this test shows nothing)"
    );
    assert!(!same_ram(&m, &c));
    m.restore(&c).unwrap();
    assert!(
        same_ram(&m, &c),
        "after the restore, RAM is the checkpoint's, page tables included"
    );
}
