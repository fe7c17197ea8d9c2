//! Reading `[[pair]]` (split from pairs.rs, whose scenario builders it
//! uses): declared pairs in order with their labels, the implicit pairs with
//! the first variant, none for variants that are cores, and the refusals (an
//! unknown variant, a variant with itself, a pair declared twice, a pair of
//! cores), each one line pointing at its place and exit 2.

use super::*;

#[test]
fn declared_pairs_are_read_in_order_with_their_labels() {
    let s = parse(&minikernel_scenario(
        "[[pair]]\nbefore = \"b\"\nafter = \"c\"\nlabel = \"  why  \"\n[[pair]]\nbefore = \"a\"\nafter = \"b\"\n",
    ))
    .unwrap();
    assert_eq!(
        s.pairs,
        vec![pair("b", "c", "why", false), pair("a", "b", "", false)]
    );
    assert_eq!(s.pair_of("b").map(|p| p.before.as_str()), Some("a"));
    assert!(s.pair_of("a").is_none(), "a is no pair's after");
}

#[test]
fn without_pairs_every_variant_is_paired_with_the_first() {
    let s = parse(&minikernel_scenario("")).unwrap();
    assert_eq!(
        s.pairs,
        vec![pair("a", "b", "", true), pair("a", "c", "", true)]
    );
}

#[test]
fn variants_that_are_cores_form_no_pairs() {
    let s = Scenario::load(&root().join("scenarios/amo-speed-probe.toml")).unwrap();
    assert!(s.pairs.is_empty(), "{:?}", s.pairs);
}

/// Lines 1-21 are `minikernel_scenario`'s; the `[[pair]]` header is line 22.
#[test]
fn an_unknown_variant_in_a_pair_points_at_its_name() {
    // Line 24: `after = "nope"`, the string starts at column 9.
    let e = parse(&minikernel_scenario(
        "[[pair]]\nbefore = \"a\"\nafter = \"nope\"\n",
    ))
    .unwrap_err();
    assert!(e.starts_with("t.toml:24:9: "), "{e}");
    assert!(
        e.contains("pair after = 'nope' is not a variant (variants: a, b, c)"),
        "{e}"
    );
    // Line 23: `before = "x"`, column 10.
    let e = parse(&minikernel_scenario(
        "[[pair]]\nbefore = \"x\"\nafter = \"a\"\n",
    ))
    .unwrap_err();
    assert!(e.starts_with("t.toml:23:10: "), "{e}");
    assert!(e.contains("pair before = 'x' is not a variant"), "{e}");
}

#[test]
fn a_pair_of_one_variant_with_itself_is_refused() {
    // Line 24: `after = "b"`, column 9.
    let e = parse(&minikernel_scenario(
        "[[pair]]\nbefore = \"b\"\nafter = \"b\"\n",
    ))
    .unwrap_err();
    assert!(e.starts_with("t.toml:24:9: "), "{e}");
    assert!(e.contains("before and after are both 'b'"), "{e}");
}

#[test]
fn a_pair_declared_twice_points_at_the_second() {
    // The second `[[pair]]` header is line 25.
    let e = parse(&minikernel_scenario(
        "[[pair]]\nbefore = \"a\"\nafter = \"b\"\n[[pair]]\nbefore = \"a\"\nafter = \"b\"\n",
    ))
    .unwrap_err();
    assert!(e.starts_with("t.toml:25:1: "), "{e}");
    assert!(e.contains("declared twice"), "{e}");
}

#[test]
fn a_pair_error_is_one_line_and_exit_2() {
    let dir = scratch("pair-error");
    let p = write(
        &dir,
        "bad.toml",
        minikernel_scenario("[[pair]]\nbefore = \"a\"\nafter = \"nope\"\n").as_bytes(),
    );
    for cmd in ["compare", "check", "fidelity"] {
        let out = trapscope_within(&[cmd, &p], LIMIT);
        fails_one_line(&out, 2, &["bad.toml:24:9:", "is not a variant"]);
    }
}

#[test]
fn a_pair_of_variants_that_are_cores_is_refused() {
    let src = std::fs::read_to_string(root().join("scenarios/amo-speed-probe.toml")).unwrap()
        + "\n[[pair]]\nbefore = \"u74\"\nafter = \"x280\"\n";
    let e = Scenario::parse(&root().join("scenarios/x.toml"), &src)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.contains("runs on its own core (u74)"), "{e}");
}
