#!/usr/bin/env python3
"""Lists functions in src/**/*.cc longer than a line limit; exits 1 when there is any.

Long functions are hard to review and to test in parts, so the limit is kept as a check.
Test code (*_test.cc, src/*/testing/) is left out. Lengths come from
universal-ctags (definition line to closing brace, both counted); exits 77 (skipped) when
universal-ctags is missing so the check does not fail on machines without it.
"""
import argparse
import pathlib
import shutil
import subprocess
import sys

SKIP_EXIT_CODE = 77


def is_test_source(path: pathlib.Path) -> bool:
    parts = path.parts
    return path.name.endswith("_test.cc") or "testing" in parts[2:-1]


def is_universal_ctags(ctags: str) -> bool:
    # Exuberant ctags has neither --kinds-c++ nor the end: field that lengths come from.
    version = subprocess.run([ctags, "--version"], capture_output=True, text=True).stdout
    return "Universal Ctags" in version


def function_lengths(root: pathlib.Path, ctags: str):
    sources = sorted(p.relative_to(root) for p in (root / "src").rglob("*.cc"))
    sources = [str(p) for p in sources if not is_test_source(p)]
    output = subprocess.run(
        [ctags, "--fields=+ne", "--kinds-c++=f", "--language-force=c++", "-o", "-"] + sources,
        cwd=root, check=True, capture_output=True, text=True).stdout
    for row in output.splitlines():
        columns = row.split("\t")
        fields = dict(column.split(":", 1) for column in columns[3:] if ":" in column)
        if "line" in fields and "end" in fields:
            length = int(fields["end"]) - int(fields["line"]) + 1
            yield length, columns[1], int(fields["line"]), columns[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=60, help="longest allowed function")
    parser.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parent.parent))
    parser.add_argument("--all", action="store_true", help="list every function, longest first")
    args = parser.parse_args()
    ctags = shutil.which("ctags")
    if ctags is None or not is_universal_ctags(ctags):
        print("universal-ctags not found; skipping the function length check")
        return SKIP_EXIT_CODE
    lengths = sorted(function_lengths(pathlib.Path(args.root), ctags), reverse=True)
    too_long = [entry for entry in lengths if entry[0] > args.limit]
    for length, path, line, name in (lengths if args.all else too_long):
        print(f"{length:5d} {path}:{line} {name}")
    if too_long:
        print(f"{len(too_long)} function(s) over {args.limit} lines")
        return 1
    print(f"no function over {args.limit} lines (longest: {lengths[0][0] if lengths else 0})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
