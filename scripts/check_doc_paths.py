#!/usr/bin/env python3
"""Every source path the documentation names exists (ctest `doc_paths`, label style).

Checks the `backticked` names in README.md, CONTRIBUTING.md and docs/**/*.md: a path whose
first folder is one of the repository's top-level folders (src/viewer/demangle.cc) must be a
file or folder of the checkout, or one below src/ or tests/ written without that prefix
(viewer/demangle.cc); a bare C++ source name (printers.cc) must be some file's name. Example
names (x.py, Python.h) are neither, and are not checked. Prints one line per stale name and
exits 1 when there is any (77, skipped, outside a git checkout).
    scripts/check_doc_paths.py [ROOT]"""

import os
import re
import subprocess
import sys

TOP_LEVEL = ("bench", "cmake", "docs", "examples", "include", "pip_build", "python", "scripts",
             "src", "tests", "tools")
TOKEN = re.compile(r"`([^`\s]+)`")


def tracked_files(root):
    """The checkout's files, or None outside a git checkout (a source archive)."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    except OSError:
        return None
    return out.stdout.split() if out.returncode == 0 else None


def stale(name, root, basenames):
    name = name.rstrip(".,:;)")
    if any(c in name for c in "*<>{}$…"):
        return False  # a pattern or a placeholder, not a path
    if "/" in name:
        head = name.split("/", 1)[0]
        module = head not in ("", ".", "..") and os.path.isdir(os.path.join(root, "src", head))
        if head not in TOP_LEVEL and not module:
            return False  # an absolute or example path
        candidates = (name, os.path.join("src", name), os.path.join("tests", name))
        return not any(os.path.exists(os.path.join(root, c)) for c in candidates)
    return name.endswith(".cc") and name not in basenames


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(
        __file__)))
    files = tracked_files(root)
    if files is None:
        print("check_doc_paths: not a git checkout; skipped")
        return 77
    basenames = {os.path.basename(f) for f in files}
    docs = ["README.md", "CONTRIBUTING.md"] + [
        f for f in files if f.startswith("docs/") and f.endswith(".md")]
    found = 0
    for doc in docs:
        with open(os.path.join(root, doc), encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                for name in TOKEN.findall(line):
                    if stale(name, root, basenames):
                        print(f"{doc}:{number}: no such file: {name}")
                        found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
