"""Runs pyflakes over the given directories; exits 1 on any finding (each printed as
path:line:col: message), 77 (a skip for ctest) when pyflakes is not installed.

    python3 tests/python/check_pyflakes.py python tests
"""

import sys


def main(paths):
    try:
        from pyflakes import api, reporter
    except ImportError:
        print("check_pyflakes: skipped: pyflakes is not installed (apt-get install "
              "python3-pyflakes)", file=sys.stderr)
        return 77
    findings = api.checkRecursive(paths, reporter._makeDefaultReporter())
    if findings:
        print(f"check_pyflakes: {findings} finding(s) in {' '.join(paths)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
