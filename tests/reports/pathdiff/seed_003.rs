//! Seed 003's three RAS mispredicts in the path diff (split from
//! pathdiff.rs, whose helpers it uses): where the guest program puts them.

use super::*;

#[test]
fn the_three_ras_mispredicts_of_seed_003_and_where_they_go() {
    // From guest-asm/minikernel (entry.S, minikernel-entry.inc, syscall.S,
    // user.S) and the scenario's narration: before the patch, per call,
    //   1. handle_exception's `jr t0` (t0 = x5, a link register) pops: a
    //      mispredict; after the patch that jump is gone, `jalr t1` (a
    //      call) is in its place;
    //   2. do_trap_ecall_u's `ret` goes to ret_from_exception, which no call
    //      pushed: a mispredict; after it, the same `ret` pops what `jalr t1`
    //      pushed: none;
    //   3. the user wrapper syscall()'s `ret` after sret finds the RAS
    //      unbalanced: a mispredict; after it, none.
    let s = scenario("ras-trap-entry.toml");
    let d = pathdiff::diff_at(
        &s,
        "before",
        "after",
        &opts(Some("u74"), false),
        Which::Last,
    )
    .unwrap();
    // One program (the same minikernel ELF), so lines match by source line.
    assert_eq!(d.matched_by, pathdiff::MatchBy::SourceLine);
    let a_ras: Vec<&Line> = d.a.lines.iter().filter(|l| ras(l)).collect();
    assert_eq!(a_ras.len(), 3, "{a_ras:#?}");
    assert!(d.b.lines.iter().all(|l| !ras(l)));
    let rows: Vec<(Option<&Line>, Option<&Line>)> = d.rows().collect();
    let find = |f: &str, text: &str| {
        rows.iter()
            .find(|(a, _)| a.is_some_and(|a| ras(a) && a.function == f && a.text == text))
            .copied()
            .unwrap_or_else(|| panic!("no mispredicting `{text}` in {f}"))
    };
    // 1: only in A, and the gap it sits in holds B's `jalr t1`.
    let (_, b) = find("handle_exception", "jr t0");
    assert!(b.is_none(), "`jr t0` is not on the after path");
    let at = rows
        .iter()
        .position(|(a, _)| a.is_some_and(|a| a.text == "jr t0"))
        .unwrap();
    let gap_end = (at..rows.len())
        .find(|&i| rows[i].0.is_some() && rows[i].1.is_some())
        .unwrap();
    let gap_start = (0..at)
        .rev()
        .find(|&i| rows[i].0.is_some() && rows[i].1.is_some())
        .unwrap();
    assert!(
        rows[gap_start..gap_end]
            .iter()
            .any(|(_, b)| b
                .is_some_and(|b| b.function == "handle_exception_ras" && b.text == "jalr t1")),
        "`jalr t1` takes the place of `jr t0`"
    );
    // 2 and 3: matched with the same `ret` on the after path, no mispredict.
    for f in ["do_trap_ecall_u", "syscall"] {
        let (_, b) = find(f, "ret");
        let b = b.unwrap_or_else(|| panic!("{f}'s ret is on the after path"));
        assert_eq!((b.function.as_str(), b.text.as_str()), (f, "ret"));
        assert!(b.events.is_empty(), "{f}'s ret after the patch: {b:?}");
    }
    // Where each went, and what the RAS said: main's `jal syscall` pushed
    // its return address, the only entry; `jr t0` popped it (so it
    // predicted that address) and went to the handler t0 held; the two
    // `ret`s after it found the RAS empty.
    let p = &s.variants[0].program;
    let main_ret = p.describe(
        d.a.lines
            .iter()
            .find(|l| l.function == "main" && l.text == "jal syscall")
            .map(|l| l.pc + 4)
            .unwrap(),
    );
    let jr = find("handle_exception", "jr t0").0.unwrap();
    assert_eq!(
        jr.mispredict.as_deref(),
        Some(format!("predicted {main_ret}, went to do_trap_ecall_u").as_str())
    );
    for (f, to) in [
        ("do_trap_ecall_u", "ret_from_exception".to_string()),
        ("syscall", main_ret.clone()),
    ] {
        let a = find(f, "ret").0.unwrap();
        assert_eq!(
            a.mispredict.as_deref(),
            Some(format!("no prediction, went to {to}").as_str()),
            "{f}"
        );
    }
    // The Markdown says so in its events table.
    let md = pathdiff::markdown(&d, false);
    assert!(
        md.contains(&format!("predicted {main_ret}, went to do_trap_ecall_u")),
        "{md}"
    );
    for (at, instead) in [
        ("| `do_trap_ecall_u+0x", "| none |"),
        ("| `syscall+0x", "| none |"),
        ("`jr t0` | ras", "in its place"),
    ] {
        assert!(
            md.lines().any(|l| l.starts_with("| `")
                && l.contains(at)
                && l.contains(instead)
                && l.contains("ras")),
            "no events row with {at} and {instead}:\n{md}"
        );
    }
}
