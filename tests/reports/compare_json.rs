//! `compare --format json` prints its figures to 9 decimal places, without the
//! binary noise of a mean (ras-trap-entry's after − before on the c910 was
//! -11.333333333333343 cycles).

use crate::common;

use std::time::Duration;

fn numbers(v: &serde_json::Value, out: &mut Vec<f64>) {
    match v {
        serde_json::Value::Number(n) => out.extend(n.as_f64()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| numbers(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| numbers(x, out)),
        _ => {}
    }
}

#[test]
fn compare_json_has_no_float_noise() {
    let out = common::trapscope_within(
        &[
            "compare",
            "scenarios/ras-trap-entry.toml",
            "--format",
            "json",
        ],
        Duration::from_secs(120),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut all = Vec::new();
    numbers(&v, &mut all);
    assert!(all.iter().any(|x| x.fract() != 0.0), "{text}");
    for x in all {
        // At most nine decimals as printed.
        let printed = format!("{x}");
        let decimals = printed.split('.').nth(1).map_or(0, str::len);
        assert!(decimals <= 9, "{printed} in\n{text}");
    }
}
