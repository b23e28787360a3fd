#!/usr/bin/env python3
"""Differential test of -i/-e pattern matching against CPython 3.11's re.match.

Random patterns built from Python regex pieces (anchors, \\b \\B \\Z, classes, groups,
lookarounds, lazy/possessive quantifiers, escapes, backreferences, comments, single braces)
are matched against short names by both. A mismatch, or a pattern we accept that Python
rejects, is a failure; refusing a pattern Python accepts is counted (allowed by viewer.md
§5.2 for unsupported constructs) but this pool holds none. Usage:
    re_diff.py RE_DRIVER [SEED]
"""
import random, re, subprocess, sys, warnings

if sys.version_info[:2] != (3, 11):
    print("skipped: the reference is CPython 3.11's re; this is", sys.version.split()[0])
    sys.exit(77)
DRIVER = sys.argv[1]
warnings.simplefilter("ignore")
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
atoms = ["a", "b", "_", "1", ".", "\\d", "\\w", "\\s", "\\b", "\\B", "\\Z", "\\A", "^", "$", "[ab]", "[^a]", "[a-c]", "[]a]", "[\\d_]", "[[:a]]", "(", ")", "(?:", "(?=", "(?!", "(?<=a)", "|", "*", "+", "?", "*?", "+?", "??", "\\\\", "\\.", "\\x41", "\\t", "\\n", "{", "}", "\\1", "(?P<n>", "(?P=n)", "(?i)", "(?s)", "\\v", "\\0", "\\101", "é", "\\u00e9", "[", "]", "\\", "*+", "(?>", "\\q", "\\h", "-", "(?#c)", "\\8", "\\12"]
names = ["", "a", "ab", "abc", "a_b", "A", "1", "a\n", "ab\n", "aaa", "b", "_x", "é", "A1b", "a b", "\\", "[", "]", "{", "}", "x{1}", ".", "a\nb"]
cases = []
for _ in range(30000):
    pat = "".join(random.choice(atoms) for _ in range(random.randint(1, 5)))
    cases.append((pat, random.choice(names)))
inp = "\n".join((p + "\x1f" + n).replace("\n", "\x1e") for p, n in cases) + "\n"
out = subprocess.run([DRIVER], input=inp.encode(), capture_output=True).stdout.decode().split("\n")
bad = refused = 0
for (p, n), o in zip(cases, out):
    if "{" in p and "}" in p[p.index("{") + 1:]: exp = "ERR"
    elif '"' in p: exp = "ERR"
    else:
        try: exp = "1" if re.match(p, n) else "0"
        except Exception: exp = "ERR"
    if exp == o: continue
    if o == "ERR":
        refused += 1
        continue
    bad += 1
    if bad < 20: print(repr(p), repr(n), "py:", exp, "us:", o)
print("checked", len(cases), "patterns:", bad, "mismatches,", refused, "refused that Python accepts")
sys.exit(1 if bad or refused else 0)
