//! The getppid loop of each work init (split from init_work.rs, whose ELF
//! readers it uses): every path through an iteration makes exactly one ecall,
//! at `init_ecall`, and the setup's own ecalls lie outside the loop.

use super::*;

/// The ecalls on every path from `start` back to it (both arms of every
/// branch, calls followed, `ret` back to the caller); a path that never
/// comes back (the error exit's spin) is not one. At most two kept.
fn loop_paths(p: &Program, start: u64) -> Vec<Vec<u64>> {
    let (mut done, mut seen) = (Vec::new(), HashSet::new());
    let mut work = vec![(start, Vec::<u64>::new(), Vec::<u64>::new(), true)];
    while let Some((pc, stack, mut calls, first)) = work.pop() {
        if pc == start && !first {
            done.push(calls);
            continue;
        }
        if !seen.insert((pc, stack.clone(), calls.clone())) {
            continue;
        }
        let i = insn_at(p, pc);
        let next = pc + u64::from(i.len);
        let target = pc.wrapping_add(i.imm as u64);
        match i.op {
            Op::Ecall => {
                if calls.len() < 2 {
                    calls.push(pc);
                }
                work.push((next, stack, calls, false));
            }
            Op::Jal => {
                let mut stack = stack;
                if i.rd != 0 {
                    stack.push(next);
                }
                work.push((target, stack, calls, false));
            }
            Op::Jalr if i.rd == 0 && i.rs1 == 1 && i.imm == 0 => {
                let mut stack = stack;
                let back = stack.pop().expect("ret with nothing called");
                work.push((back, stack, calls, false));
            }
            Op::Jalr => panic!("indirect jump at {pc:#x}"),
            Op::Branch(_) => {
                work.push((target, stack.clone(), calls.clone(), false));
                work.push((next, stack, calls, false));
            }
            _ => work.push((next, stack, calls, false)),
        }
    }
    done
}

#[test]
fn every_iteration_of_each_work_init_makes_the_one_ecall_at_init_ecall() {
    for name in WORK_INITS {
        let p = load(name);
        let paths = loop_paths(&p, addr(&p, "init_loop"));
        assert!(!paths.is_empty(), "{name}");
        for path in paths {
            assert_eq!(path, [addr(&p, "init_ecall")], "{name}");
        }
        // The setup's own ecalls are elsewhere: `trapscope snapshot` counts
        // executions of init_ecall only.
        let setup = addr(&p, "init_setup");
        assert_ne!(setup, addr(&p, "init_ecall"));
        assert!(!(addr(&p, "init_loop")..=addr(&p, "init_ecall")).contains(&setup));
    }
}
