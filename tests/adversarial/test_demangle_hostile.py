"""--demangle and --match=normalized on hostile C++ names (viewer.md §11.9, §11.7).

Names whose substitutions reference the previous composite twice double their demangled
text per step: 212 bytes once printed 6.8 MB, 250 bytes took 76 s and 5 GB and printed a
1.7 GB line, and --match=normalized on them ran out of time. Past the limits of §11.9 such a
name is shown as stored; the whole run stays fast and small, with thousands of them."""

import os
import re
import sys

import pytest

from conftest import ROOT, address_space_limit, needs_no_sanitizer, run_viewer

# The names and profiles come from the benchmark's generator: one definition of them.
sys.path.insert(0, os.path.join(ROOT, "bench", "viewer"))
from gen_demangle import doubling_name, write  # noqa: E402

REAL = ("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEE"
        "viT0_T1_")
REAL_FULL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
             "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)")
REAL_SHORT = "at::native::vectorized_elementwise_kernel"


def write_profile(path, names):
    write(str(path), names)
    return str(path)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """One profile with the 212-, 250- and 2000-byte names and a real kernel, and one with
    10,000 distinct 250-byte ones."""
    d = tmp_path_factory.mktemp("demangle")
    few = [doubling_name(212, "f212"), doubling_name(250, "f250"), doubling_name(2000, "f2000"),
           REAL]
    many = [doubling_name(250, "f%d" % i) for i in range(10000)]
    # 64-letter leaves, 11 parameters: 280 KB of text each, 189 bytes mangled.
    leafy = [doubling_name(180, "f%d" % i, "a" * 64) for i in range(10000)]
    return {"few": write_profile(d / "few.hatchet", few), "few_names": few,
            "many": write_profile(d / "many.hatchet", many), "many_names": many,
            "leafy": write_profile(d / "leafy.hatchet", leafy), "leafy_names": leafy}


ROW = re.compile(r"^[\u2500-\u257f ]*\S+ (.*)$")  # tree glyphs, the value, the name


def printed_names(result, max_bytes):
    """The frame names of a successful run's tree, below ROOT."""
    assert result.returncode == 0, result.stderr.decode(errors="replace")[:2000]
    assert result.stderr == b""
    assert len(result.stdout) < max_bytes, len(result.stdout)
    names = [ROW.match(line).group(1) for line in result.stdout.decode().splitlines() if line]
    assert names[0] == "ROOT"
    return names[1:]


@pytest.mark.parametrize("mode,real", [("--demangle", REAL_FULL),
                                       ("--demangle=short", REAL_SHORT)])
def test_hostile_names_are_shown_as_stored(hostile, mode, real):
    names = printed_names(run_viewer(["-m", "time/ns", mode, hostile["few"]], timeout=20),
                          100_000)
    # In stored-name order; the real kernel is still demangled.
    assert names == sorted(hostile["few_names"][:3]) + [real]


def test_normalized_diff_of_hostile_names(hostile):
    names = printed_names(run_viewer(["-m", "time/ns", "--match=normalized", "--diff-profile",
                                      hostile["few"], hostile["few"]], timeout=20), 100_000)
    assert sorted(names) == sorted(hostile["few_names"][:3] + [REAL_FULL])


@pytest.mark.parametrize("args", [["--demangle"], ["--demangle=short"],
                                  ["--match=normalized", "--diff-profile", "MANY"]])
def test_ten_thousand_hostile_names(hostile, args):
    args = [hostile["many"] if a == "MANY" else a for a in args]
    names = printed_names(run_viewer(["-m", "time/ns"] + args + [hostile["many"]], timeout=30),
                          20_000_000)
    assert sorted(names) == sorted(hostile["many_names"])


def test_ten_thousand_names_of_long_identifiers(hostile):
    # Their identifiers alone are more than 64 KiB of text: refused without printing it.
    names = printed_names(run_viewer(["-m", "time/ns", "--demangle", hostile["leafy"]],
                                     timeout=30), 20_000_000)
    assert sorted(names) == sorted(hostile["leafy_names"])


@needs_no_sanitizer
@pytest.mark.parametrize("args", [["--demangle"], ["--demangle=short"],
                                  ["--match=normalized", "--diff-profile", "FEW"]])
def test_hostile_names_within_a_memory_limit(hostile, args):
    # 512 MB of address space: the viewer needs about 20 MB here; the 250-byte name alone
    # once needed 5 GB.
    args = [hostile["few"] if a == "FEW" else a for a in args]
    names = printed_names(run_viewer(["-m", "time/ns"] + args + [hostile["few"]], timeout=20,
                                     preexec_fn=address_space_limit(512)), 100_000)
    assert sorted(hostile["few_names"][:3]) == sorted(names)[:3]
