#!/usr/bin/env python3
"""ARCHITECTURE.md stays a map (at most MAX_LINES lines) and every path it names exists: a file
or folder of the tree (a source may be named
without its extension, as `tools/snapshot_presets` for the tool). Placeholders (`<command>`) and
paths inside an example (`preset:configs/x.toml:3:7`) are not paths of the tree.

    architecture_paths.py ROOT
"""
import os
import re
import sys

TOP = ("src", "tests", "scripts", "tools", "fuzz", "configs", "docs", "validation")
PATH = re.compile(r"(?<![\w:/.-])((?:%s)/[A-Za-z0-9_./-]*)" % "|".join(TOP))
EXTENSIONS = ("", ".cpp", ".hpp", ".py", ".sh", ".md")
MAX_LINES = 200  # a map of the folders and how to add things, not the code restated


def main(root):
    text = open(os.path.join(root, "ARCHITECTURE.md"), encoding="utf-8").read()
    missing = []
    if len(text.splitlines()) > MAX_LINES:
        missing.append(f"ARCHITECTURE.md: {len(text.splitlines())} lines, more than {MAX_LINES}: a map, not the code")
    for n, line in enumerate(text.splitlines(), 1):
        for m in PATH.finditer(line):
            path = m.group(1).rstrip(".,")
            if line[m.end():m.end() + 1] == "<":  # a placeholder follows: tests/e2e/cases/<name>/
                continue
            if not any(os.path.exists(os.path.join(root, path + e)) for e in EXTENSIONS):
                missing.append(f"ARCHITECTURE.md:{n}: {path} is not in the tree")
    for m in missing:
        print(m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
