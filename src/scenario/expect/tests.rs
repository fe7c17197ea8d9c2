use super::*;

#[test]
fn parses_comparisons_between_variants_and_numbers() {
    let c = Check::parse("after.x.y < before.x.y", &["before", "after"]).unwrap();
    assert_eq!(c.op, Cmp::Lt);
    assert_eq!(c.to_string(), "after.x.y < before.x.y");
    let c = Check::parse("before.exit_code == 0", &["before"]).unwrap();
    assert_eq!(c.rhs, Expr::Leaf(Operand::Number(0.0)));
    let c = Check::parse("before.a <= 3", &["before"]).unwrap();
    assert_eq!(c.op, Cmp::Le);
    let c = Check::parse("before.a==1_000", &["before"]).unwrap();
    assert_eq!(c.rhs, Expr::Leaf(Operand::Number(1000.0)));
    // A step may hold '-': an event's name.
    let c = Check::parse("before.events.trap-return == 1", &["before"]).unwrap();
    assert_eq!(c.to_string(), "before.events.trap-return == 1");
}

#[test]
fn parses_pair_operands() {
    let c = Check::parse("pair.a.b.cycles <= 0", &["a", "b"]).unwrap();
    assert_eq!(
        c.lhs,
        Expr::Leaf(Operand::Pair {
            before: "a".into(),
            after: "b".into(),
            path: vec!["cycles".into()]
        })
    );
    assert_eq!(c.to_string(), "pair.a.b.cycles <= 0");
    assert_eq!(c.variants(), vec!["a", "b"]);
    let err = |s: &str| Check::parse(s, &["a", "b"]).unwrap_err().to_string();
    assert!(err("pair.a.c.ns < 0").contains("unknown variant 'c'"));
    assert!(err("pair.a.a.ns < 0").contains("two different variants"));
    assert!(err("pair.a.b.exit_code < 0").contains("one of instructions, cycles, ns"));
    assert!(err("pair.a.b < 0").contains("one of instructions, cycles, ns"));
    assert!(err("pair.a < 0").contains("pair.BEFORE.AFTER.METRIC"));
    // A variant called "pair" keeps its name.
    let c = Check::parse("pair.exit_code == 0", &["pair"]).unwrap();
    assert!(matches!(c.lhs, Expr::Leaf(Operand::Metric { .. })));
}

#[test]
fn rejects_unknown_variants_and_missing_ops() {
    assert!(
        Check::parse("nope.x < 1", &["before"])
            .unwrap_err()
            .to_string()
            .contains("unknown variant")
    );
    assert!(
        Check::parse("before.x", &["before"])
            .unwrap_err()
            .to_string()
            .contains("no comparison")
    );
    assert!(
        Check::parse("before < 1", &["before"])
            .unwrap_err()
            .to_string()
            .contains("VARIANT.METRIC")
    );
}

fn names<'a>(v: &'a [&'a str]) -> Names<'a> {
    Names::variants(v)
}

#[test]
fn arithmetic_binds_products_first_and_prints_back_the_same() {
    let v = ["a", "b", "c"];
    let c = Check::parse_in(
        "pair.b.c.instructions == 8 * pair.a.b.instructions",
        &names(&v),
    )
    .unwrap();
    let Expr::Op(Arith::Mul, l, r) = &c.rhs else {
        panic!("{:?}", c.rhs)
    };
    assert_eq!(**l, Expr::Leaf(Operand::Number(8.0)));
    assert!(matches!(**r, Expr::Leaf(Operand::Pair { .. })));
    assert_eq!(
        c.to_string(),
        "pair.b.c.instructions == 8 * pair.a.b.instructions"
    );
    // a - b + 2 * c is (a - b) + (2 * c); a - (b - c) keeps its parentheses.
    let c = Check::parse("a.x - b.x + 2 * c.x > 0", &v).unwrap();
    let Expr::Op(Arith::Add, l, r) = &c.lhs else {
        panic!()
    };
    assert!(matches!(**l, Expr::Op(Arith::Sub, ..)));
    assert!(matches!(**r, Expr::Op(Arith::Mul, ..)));
    assert_eq!(c.to_string(), "a.x - b.x + 2 * c.x > 0");
    let c = Check::parse("a.x - (b.x - c.x) == (a.x + 1) * 2", &v).unwrap();
    assert_eq!(c.to_string(), "a.x - (b.x - c.x) == (a.x + 1) * 2");
    // A '-' after an operand subtracts; after a comparison it is a sign.
    let c = Check::parse("a.x -1 == -1", &v).unwrap();
    assert_eq!(c.to_string(), "a.x - 1 == -1");
    assert_eq!(c.variants(), vec!["a"]);
    assert_eq!(c.operands().len(), 3);
}

#[test]
fn evaluation_shows_each_value_and_the_result() {
    let v = ["a", "b"];
    let c = Check::parse("a.x == 8 * b.y - 2", &v).unwrap();
    let leaf = |o: &Operand| match o {
        Operand::Metric { variant, .. } if variant == "a" => Ok(46.0),
        Operand::Metric { .. } => Ok(6.0),
        Operand::Number(n) => Ok(*n),
        Operand::Pair { .. } => Err("no pairs".to_string()),
    };
    let out = c.evaluate(&leaf).unwrap();
    assert_eq!((out.lhs, out.rhs, out.holds), (46.0, 46.0, true));
    assert_eq!(out.shown, "46 == 8 * 6 - 2 = 46");
    let c = Check::parse("a.x > b.y", &v).unwrap();
    let out = c.evaluate(&leaf).unwrap();
    assert!(out.holds);
    assert_eq!(out.shown, "46 > 6");
    let c = Check::parse("a.x < b.y", &v).unwrap();
    let out = c.evaluate(&leaf).unwrap();
    assert!(!out.holds);
    assert_eq!(out.shown, "46, not < 6");
    let c = Check::parse("pair.a.b.ns == 0", &v).unwrap();
    assert_eq!(c.evaluate(&leaf).unwrap_err(), "no pairs");
}

#[test]
fn errors_point_at_the_token_they_are_about() {
    let v = ["a", "b"];
    let at = |s: &str| Check::parse_in(s, &names(&v)).unwrap_err();
    // Byte offsets: "a.x == 2 * nope.y" has 'nope' at 11.
    let e = at("a.x == 2 * nope.y");
    assert_eq!(e.at, 11, "{e:?}");
    assert!(e.msg.contains("unknown variant 'nope'"), "{e:?}");
    let e = at("a.x == 2 *");
    assert_eq!(
        (e.at, e.msg.as_str()),
        (10, "expectation is missing an operand")
    );
    let e = at(" == a.x");
    assert_eq!(
        (e.at, e.msg.as_str()),
        (1, "expectation is missing an operand")
    );
    let e = at("a.x == b.x == 1");
    assert_eq!(e.at, 11, "{e:?}");
    assert!(e.msg.contains("one comparison"), "{e:?}");
    let e = at("a.x = 1");
    assert_eq!(
        (e.at, e.msg.as_str()),
        (4, "'=' is not a comparison: write ==")
    );
    let e = at("a.x / 2 == 1");
    assert_eq!(e.at, 4);
    assert!(e.msg.contains("'/' is not supported"), "{e:?}");
    let e = at("a.x 2 == 1");
    assert_eq!(e.at, 4);
    assert!(e.msg.contains("join operands with +, - or *"), "{e:?}");
    let e = at("(a.x + 1 == 2");
    assert_eq!((e.at, e.msg.as_str()), (0, "this '(' has no matching ')'"));
    let e = at("a.x == -b.x");
    assert_eq!(e.at, 7);
    assert!(e.msg.contains("-1 * METRIC"), "{e:?}");
    let e = at("a.x == 1.2.3");
    assert_eq!((e.at, e.msg.as_str()), (7, "'1.2.3' is not a number"));
    let e = at("a.x == a.$");
    assert_eq!(e.at, 9);
    assert!(e.msg.contains("unexpected '$'"), "{e:?}");
    let e = at("a.x. == 1");
    assert_eq!((e.at, e.msg.as_str()), (4, "'a.x.': a path step is empty"));
    let e = at("pair.a.b.exit_code == 1");
    assert_eq!(e.at, 9, "at the metric: {e:?}");
    let e = at("a.\"x.y == 1");
    assert_eq!(e.at, 2);
}

#[test]
fn function_names_are_checked_against_the_guest() {
    let v = ["fast"];
    let known = |variant: &str, f: &str| variant == "fast" && f == "sys_getppid";
    let n = Names {
        variants: &v,
        function: Some(&known),
        metrics: None,
    };
    let c = Check::parse_in(
        "fast.functions_per_iteration.sys_getppid.instructions == 10",
        &n,
    )
    .unwrap();
    assert_eq!(
        c.to_string(),
        "fast.functions_per_iteration.sys_getppid.instructions == 10"
    );
    // 'sys_getpid' at byte 29.
    let e = Check::parse_in(
        "fast.functions_per_iteration.sys_getpid.instructions == 0",
        &n,
    )
    .unwrap_err();
    assert_eq!(e.at, 29, "{e:?}");
    assert!(e.msg.contains("'sys_getpid' is not a function"), "{e:?}");
    let e = Check::parse_in("fast.functions_per_iteration.sys_getppid == 0", &n).unwrap_err();
    assert!(
        e.msg.contains("FUNCTION.instructions (or .cycles)"),
        "{e:?}"
    );
    // A quoted step holds dots.
    let c = Check::parse("fast.x.\"a.b\" == 0", &v).unwrap();
    assert_eq!(c.to_string(), "fast.x.\"a.b\" == 0");
}

#[test]
fn lookups_pick_named_entries_and_read_absent_ones_as_zero() {
    let j = serde_json::json!({
        "exit_code": 0,
        "window_closed": true,
        "estimate": null,
        "functions_per_iteration": [
            {"name": "main", "instructions": 5.0, "cycles": null},
            {"name": "sys_getppid", "instructions": 10.0, "cycles": null}
        ],
        "hot": [{"loc": "x"}]
    });
    let p = |s: &str| s.split('.').map(String::from).collect::<Vec<_>>();
    let get = |s: &str| lookup_path(&j, &p(s));
    assert_eq!(
        get("functions_per_iteration.sys_getppid.instructions"),
        Ok(10.0)
    );
    assert_eq!(get("functions_per_iteration.absent.instructions"), Ok(0.0));
    assert!(
        get("functions_per_iteration.absent.colour")
            .unwrap_err()
            .to_string()
            .contains("has no entry 'absent'")
    );
    assert!(
        get("functions_per_iteration.main.cycles")
            .unwrap_err()
            .to_string()
            .contains("is null")
    );
    assert!(
        get("hot.x.loc")
            .unwrap_err()
            .to_string()
            .contains("list without names")
    );
    assert!(
        get("nope")
            .unwrap_err()
            .to_string()
            .contains("the result has no 'nope'")
    );
    assert!(
        get("exit_code.x")
            .unwrap_err()
            .to_string()
            .contains("is a value")
    );
    // `a.x-b.y` without spaces reads as one path: the message says so.
    assert!(
        get("exit_code-b")
            .unwrap_err()
            .to_string()
            .contains("to subtract, put spaces around the '-'")
    );
    assert!(
        get("functions_per_iteration")
            .unwrap_err()
            .to_string()
            .contains("not a number")
    );
    assert_eq!(get("window_closed"), Ok(1.0));
    assert_eq!(lookup(&j, &p("exit_code")), Some(0.0));
}

#[test]
fn source_offsets_map_into_plain_strings_only() {
    let src = "check = \"a.x == 1\"\nother = \"a\\u0041 == 1\"\nm = '''\nab'''\n";
    // "a.x == 1" spans 8..18; byte 4 of the value is the '='.
    assert_eq!(source_offset(src, 8..18, "a.x == 1", 4), 13);
    assert_eq!(&src[13..14], "=");
    // An escape: the string's start.
    let start = src.find("\"a\\u").unwrap();
    let end = src[start + 1..].find('"').unwrap() + start + 2;
    assert_eq!(source_offset(src, start..end, "aA == 1", 3), start);
    // A multi-line literal: the newline after ''' is not in the value.
    let start = src.find("'''").unwrap();
    let at = source_offset(src, start..src.len() - 1, "ab", 1);
    assert_eq!(&src[at..at + 1], "b");
}
