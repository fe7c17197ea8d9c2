#!/usr/bin/env python3
"""Writes every shipped scenario's machine-readable outputs to a directory,
so that a change meant to alter no behaviour (moving code between modules,
say) can be checked to leave them byte for byte as they were:

    cargo build --release
    tools/outputs.py /tmp/before          # on the commit before
    tools/outputs.py /tmp/after           # on the change
    diff -r /tmp/before /tmp/after        # nothing

For each scenarios/NAME.toml it writes NAME.run.json (`run --format json`),
NAME.compare.json (`compare --format json`), and NAME.diff.json (`diff
--format json`, the scenario's first pair, on its first core), each with the
exit status on the last line. TRAPSCOPE_BIN names another build's binary
(default: target/release/trapscope, or $CARGO_TARGET_DIR/release/trapscope).
"""
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def binary() -> str:
    if os.environ.get("TRAPSCOPE_BIN"):
        return os.environ["TRAPSCOPE_BIN"]
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "release" / "trapscope")


def run(args: list[str]) -> bytes:
    p = subprocess.run([binary(), *args], cwd=ROOT, capture_output=True)
    return p.stdout + f"\nexit {p.returncode}\n".encode()


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: tools/outputs.py DIR", file=sys.stderr)
        return 2
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for toml in sorted((ROOT / "scenarios").glob("*.toml")):
        rel = str(toml.relative_to(ROOT))
        name = toml.stem
        s = tomllib.loads(toml.read_text())
        cores = s.get("cores", [])
        (out / f"{name}.run.json").write_bytes(run(["run", rel, "--format", "json"]))
        (out / f"{name}.compare.json").write_bytes(
            run(["compare", rel, "--format", "json"])
        )
        diff = ["diff", rel, "--format", "json"]
        if cores:
            diff += ["--core", cores[0]]
        (out / f"{name}.diff.json").write_bytes(run(diff))
        print(f"{name}: written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
