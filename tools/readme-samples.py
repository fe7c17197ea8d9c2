#!/usr/bin/env python3
"""Regenerates the README's command samples from the program itself.

Every fenced block whose first line is `$ trapscope ARGS` (and that is not
the checked error-example block, which `cargo test` compares) is replaced by
that line followed by what the command prints now (stdout and stderr, as a
terminal shows them). Run from the repository root after a change that moves
a figure:

    cargo build --release && tools/readme-samples.py

A section between `<!-- generated: $ trapscope ARGS -->` and
`<!-- end generated -->` is replaced by what the command prints, as it is
(Markdown, not a code block): the fidelity table comes from
`trapscope fidelity --format md`.

TRAPSCOPE_BIN names another build's binary (it must be called trapscope),
e.g. TRAPSCOPE_BIN=target/debug/trapscope.

tests/readme.rs runs the same commands (those without a pipe) and fails when
a sample or a generated section has drifted.
"""
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.environ.get("TRAPSCOPE_BIN") or os.path.join(root, "target", "release", "trapscope")
binary = os.path.abspath(binary)
GEN = "<!-- generated: $ trapscope "
END = "<!-- end generated -->"
readme = os.path.join(root, "README.md")
text = open(readme, encoding="utf-8").read()
lines = text.split("\n")


def run(cmd):
    shell = "trapscope" + cmd[len("$ trapscope"):]
    env = dict(os.environ, PATH=os.path.dirname(binary) + os.pathsep + os.environ["PATH"])
    res = subprocess.run(shell, shell=True, cwd=root, env=env, capture_output=True, text=True)
    return (res.stdout + res.stderr).rstrip("\n")


out = []
i = 0
checked = False
while i < len(lines):
    line = lines[i]
    out.append(line)
    if line.startswith(GEN) and line.endswith(" -->"):
        cmd = line[len("<!-- generated: "):-len(" -->")]
        body = run(cmd)
        out.append("")
        out.extend(body.split("\n") if body else [])
        out.append("")
        j = i + 1
        while not lines[j].startswith(END):
            j += 1
        out.append(lines[j])
        i = j + 1
        continue
    if line.startswith("<!-- readme-checked:"):
        checked = True
    if line.startswith("```") and i + 1 < len(lines) and lines[i + 1].startswith("$ trapscope "):
        if checked:
            checked = False
            i += 1
            continue
        cmd = lines[i + 1]
        body = run(cmd)
        out.append(cmd)
        out.extend(body.split("\n") if body else [])
        j = i + 2
        while not lines[j].startswith("```"):
            j += 1
        out.append(lines[j])
        i = j + 1
        continue
    i += 1
new = "\n".join(out)
if new != text:
    open(readme, "w", encoding="utf-8").write(new)
    print("readme-samples: README.md updated", file=sys.stderr)
else:
    print("readme-samples: README.md already current", file=sys.stderr)
