#!/usr/bin/env python3
"""Regenerates the README's command samples from the program itself.

Every fenced block whose first line is `$ trapscope ARGS` (and that is not
the checked error-example block, which `cargo test` compares) is replaced by
that line followed by what the command prints now (stdout and stderr, as a
terminal shows them). Run from the repository root after a change that moves
a figure:

    cargo build --release && tools/readme-samples.py

tests/readme.rs runs the same commands (those without a pipe) and fails when
a sample has drifted.
"""
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.join(root, "target", "release", "trapscope")
readme = os.path.join(root, "README.md")
text = open(readme, encoding="utf-8").read()
lines = text.split("\n")
out = []
i = 0
checked = False
while i < len(lines):
    line = lines[i]
    out.append(line)
    if line.startswith("<!-- readme-checked:"):
        checked = True
    if line.startswith("```") and i + 1 < len(lines) and lines[i + 1].startswith("$ trapscope "):
        if checked:
            checked = False
            i += 1
            continue
        cmd = lines[i + 1]
        shell = "trapscope" + cmd[len("$ trapscope"):]
        env = dict(os.environ, PATH=os.path.dirname(binary) + os.pathsep + os.environ["PATH"])
        res = subprocess.run(shell, shell=True, cwd=root, env=env, capture_output=True, text=True)
        body = (res.stdout + res.stderr).rstrip("\n")
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
