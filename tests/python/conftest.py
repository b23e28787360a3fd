"""pytest configuration: every test runs in its own temporary directory and leaves no
session behind."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import proton  # noqa: E402


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PROTON_DISABLE", raising=False)
    monkeypatch.delenv("TRITON_PROTON_DISABLE", raising=False)
    yield tmp_path
    proton.finalize()
