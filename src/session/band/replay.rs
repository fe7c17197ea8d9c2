//! Feeding a tape to another model: the predictors first (which transfers
//! mispredict), then the pipeline, with what `Stats` does for each retired
//! range and event, so that the run's own profile gives the run's own
//! cycles (`tests.rs` checks it on every scenario and core).
//!
//! The pipeline is fed in segments, cut after every trap (which empties
//! it) and before every mark. A segment whose entries and mispredicts equal
//! an earlier one's, starting from a pipeline congruent to that one's start
//! (`PipeState::congruent`), costs what that one cost and ends congruent to
//! where it ended, as much later as it began: it is added rather than
//! replayed. A loop's iterations, and the syscalls in
//! them, are such segments once the pipeline settles.

use std::collections::HashMap;
use std::rc::Rc;

use super::types::{Misps, Replayed};
use crate::cost::class::Static;
use crate::cost::{At, PipeState, Profile};
use crate::predict::Predictors;
use crate::session::clock::{self, CoreModel};
use crate::session::stats::IDLE;
use crate::session::tape::{Entry, Mark, Tape};

/// Earlier segments kept per shape, to compare a new one with.
const KEPT: usize = 4;

/// The predictors' verdicts on the tape, as `Stats` reaches them.
pub(super) fn predict(tape: &Tape, p: &Profile) -> Misps {
    let c = &p.core;
    let mut pred = Predictors::new(
        c.ras_depth.value as usize,
        c.bht_entries.value as usize,
        c.btb_entries.value as usize,
    );
    pred.ras.tag_modes(c.ras_privilege_tags.value);
    let flushes = c.trap_flushes_ras.value;
    let mut out = Vec::new();
    for (k, e) in tape.entries.iter().enumerate() {
        match *e {
            Entry::Range {
                block,
                from,
                to,
                priv_,
                next,
                ..
            } => {
                pred.ras.set_mode(priv_);
                let b = &tape.blocks[block as usize];
                for i in from..to {
                    let d = &b[i as usize];
                    if !d.insn.is_some_and(|x| x.is_control()) {
                        continue;
                    }
                    let n = if i + 1 < to {
                        Some(b[i as usize + 1].pc)
                    } else {
                        next
                    };
                    if let Some(mp) = n.and_then(|n| pred.resolve(d, n)) {
                        out.push((k as u32, i, mp.kind));
                    }
                }
            }
            Entry::Trap { .. } | Entry::Xret if flushes => pred.flush_ras(),
            _ => {}
        }
    }
    out
}

/// A segment already costed.
struct Seg {
    from: usize,
    to: usize,
    mfrom: usize,
    mto: usize,
    pipe: PipeState,
    vec_pending: u64,
    /// Cycles (milli) per phase.
    cost: Vec<u64>,
    /// Where it left the pipeline and the vector unit.
    end: PipeState,
    end_pending: u64,
}

/// What the pipeline is fed: the model, each block's table, and where the
/// mispredicts stand.
struct Feed<'a> {
    tape: &'a Tape,
    misps: &'a Misps,
    m: CoreModel,
    statics: Vec<Option<Vec<Static>>>,
    now: Vec<u64>,
    mi: usize,
}

/// Window cycles (milli) per phase: the tape costed by profile `p` with
/// the mispredicts `misps`; `reuse`: add a repeated segment rather than
/// replay it (the result is the same: `tests.rs` checks it).
pub(super) fn replay(
    tape: &Tape,
    p: Profile,
    misps: &Misps,
    phases: usize,
    reuse: bool,
) -> Replayed {
    let mut f = Feed {
        tape,
        misps,
        m: CoreModel::new(Rc::new(p)),
        statics: vec![None; tape.blocks.len()],
        now: vec![0; phases],
        mi: 0,
    };
    let (mut start, mut end) = (None, None);
    // Work (milli, idle left out) at each iteration mark and at the
    // window's end.
    let work = |now: &[u64]| now.iter().sum::<u64>() - now.get(IDLE as usize).copied().unwrap_or(0);
    let mut marks = Vec::new();
    let mut end_work = None;
    // Earlier segments by shape: length, first and last entry, mispredicts.
    let mut seen: HashMap<(usize, usize, Key, Key), Vec<Seg>> = HashMap::new();
    let entries = &tape.entries;
    let n = entries.len();
    let mut k = 0;
    while k < n {
        if let Entry::Mark(mark) = entries[k] {
            match mark {
                Mark::WindowStart if start.is_none() => start = Some(f.now.clone()),
                Mark::WindowEnd if end.is_none() => {
                    end = Some(f.now.clone());
                    end_work = Some(work(&f.now));
                }
                Mark::Iteration => marks.push(work(&f.now)),
                _ => {}
            }
            k += 1;
            continue;
        }
        // Up to the next mark, or through the next trap: a trap empties
        // the pipeline, so what follows it starts alike each time.
        let to = entries[k..]
            .iter()
            .position(|e| matches!(e, Entry::Mark(_) | Entry::Trap { .. }))
            .map_or(n, |j| match entries[k + j] {
                Entry::Trap { .. } => k + j + 1,
                _ => k + j,
            });
        let mfrom = f.mi;
        let mto = mfrom + misps[mfrom..].partition_point(|x| (x.0 as usize) < to);
        // Idling depends on the clock's absolute reading: never reused.
        let idles = entries[k..to]
            .iter()
            .any(|e| matches!(e, Entry::Idle { .. }));
        let shape = (to - k, mto - mfrom, key(&entries[k]), key(&entries[to - 1]));
        let before = (f.m.pipe.clone(), f.m.vec_pending, f.now.clone());
        let hit = if reuse && !idles {
            seen.get(&shape).and_then(|c| {
                c.iter().find(|s| {
                    s.vec_pending == f.m.vec_pending
                        && s.pipe.now() <= f.m.pipe.now()
                        && same(tape, misps, s, k, to, mfrom)
                        && s.pipe.congruent(&f.m.pipe)
                })
            })
        } else {
            None
        };
        #[cfg(test)]
        if let Some(s) = hit
            && std::env::var_os("BAND_VERIFY").is_some()
        {
            let mut g = Feed {
                tape,
                misps,
                m: CoreModel::new(f.m.profile.clone()),
                statics: vec![None; tape.blocks.len()],
                now: f.now.clone(),
                mi: f.mi,
            };
            g.m.pipe = f.m.pipe.clone();
            g.m.vec_pending = f.m.vec_pending;
            for j in k..to {
                g.step(j);
            }
            let cost: Vec<u64> = g.now.iter().zip(&f.now).map(|(a, b)| a - b).collect();
            if cost != s.cost {
                panic!(
                    "segment {k}..{to} reused from {}..{}: {:?} vs {:?}\nnow {:?}\nthen {:?}",
                    s.from, s.to, cost, s.cost, f.m.pipe, s.pipe
                );
            }
        }
        match hit {
            Some(s) => {
                for (x, d) in f.now.iter_mut().zip(&s.cost) {
                    *x += d;
                }
                // It ends where that one ended, as much later as it began.
                let later = f.m.pipe.now() - s.pipe.now();
                f.m.pipe.clone_from(&s.end);
                f.m.pipe.shift(later);
                f.m.vec_pending = s.end_pending;
                f.mi = mto;
            }
            None => {
                for j in k..to {
                    f.step(j);
                }
                debug_assert_eq!(f.mi, mto, "every mispredict consumed");
                f.mi = mto;
                if reuse && !idles {
                    let seg = Seg {
                        from: k,
                        to,
                        mfrom,
                        mto,
                        cost: f.now.iter().zip(&before.2).map(|(a, b)| a - b).collect(),
                        end: f.m.pipe.clone(),
                        end_pending: f.m.vec_pending,
                        pipe: before.0,
                        vec_pending: before.1,
                    };
                    let c = seen.entry(shape).or_default();
                    if c.len() == KEPT {
                        c.remove(0);
                    }
                    c.push(seg);
                }
            }
        }
        k = to;
    }
    let end = end.unwrap_or(f.now);
    let window = match start {
        Some(s) => end.iter().zip(&s).map(|(a, b)| a - b).collect(),
        None => end,
    };
    Replayed {
        window,
        marks,
        end: end_work,
    }
}

/// An entry's part of a segment's shape.
type Key = (u8, u32, u16);

fn key(e: &Entry) -> Key {
    match *e {
        Entry::Range { block, from, .. } => (0, block, from),
        Entry::Trap { phase } => (1, u32::from(phase), 0),
        Entry::Xret => (2, 0, 0),
        Entry::Vector { phase, .. } => (3, u32::from(phase), 0),
        Entry::Idle { .. } => (4, 0, 0),
        Entry::Mark(_) => (5, 0, 0),
    }
}

/// Whether entries `from..to`, with their mispredicts from `mfrom`, are
/// segment `s`'s exactly (mispredicts counted from each one's start).
fn same(tape: &Tape, misps: &Misps, s: &Seg, from: usize, to: usize, mfrom: usize) -> bool {
    let mto = mfrom + (s.mto - s.mfrom);
    to - from == s.to - s.from
        && mto <= misps.len()
        && tape.entries[from..to] == tape.entries[s.from..s.to]
        && misps[mfrom..mto]
            .iter()
            .zip(&misps[s.mfrom..s.mto])
            .all(|(a, b)| a.0 as usize - from == b.0 as usize - s.from && a.1 == b.1 && a.2 == b.2)
}

impl Feed<'_> {
    /// Costs entry `k`, as `Stats` does when it retires it.
    fn step(&mut self, k: usize) {
        let m = &mut self.m;
        let now = &mut self.now;
        match self.tape.entries[k] {
            Entry::Range {
                block,
                from,
                to,
                phase,
                next,
                ..
            } => {
                let b = &self.tape.blocks[block as usize];
                let st = self.statics[block as usize]
                    .get_or_insert_with(|| b.iter().map(|d| m.cost.of(d)).collect());
                for i in from..to {
                    let d = &b[i as usize];
                    let n = if i + 1 < to {
                        Some(b[i as usize + 1].pc)
                    } else {
                        next
                    };
                    let misp = match self.misps.get(self.mi) {
                        Some(&(ek, ei, kind)) if ek as usize == k && ei == i => {
                            self.mi += 1;
                            Some(kind)
                        }
                        _ => None,
                    };
                    let at = At {
                        i: i as usize,
                        completed: n.is_some(),
                        taken: n.is_some_and(|n| n != d.pc + u64::from(d.len)),
                        misp,
                    };
                    let mut spent = 0;
                    let waited = clock::charge_one(
                        &m.cost,
                        &mut m.pipe,
                        &st[i as usize],
                        at,
                        &mut m.vec_pending,
                        |_, v, _| spent += v,
                    );
                    now[phase as usize] += spent + waited;
                }
            }
            Entry::Trap { phase } => now[phase as usize] += m.cost.trap(&mut m.pipe),
            Entry::Vector { class, phase } => now[phase as usize] += m.vector_charge(&class),
            Entry::Idle { target } => {
                let sum: u64 = now.iter().sum();
                let need = clock::idle_milli(&m.profile, sum, target);
                m.idle_for(need);
                now[IDLE as usize] += need;
            }
            Entry::Xret | Entry::Mark(_) => {}
        }
    }
}
