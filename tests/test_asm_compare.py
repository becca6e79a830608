"""``opts``'s identical-machine-code note: equal code grouped, different code not, failures said."""

from __future__ import annotations

import json
import warnings

import numba
import numpy as np

from numbades.cli import asm


def _kernels():
    def add_one(a):
        for i in range(a.shape[0]):
            a[i] += 1

    def add_one_again(a):  # the same body under another name: the same machine code
        for i in range(a.shape[0]):
            a[i] += 1

    def add_two(a):
        for i in range(a.shape[0]):
            a[i] += 2

    compiled = {}
    for name, fn in (("one", add_one), ("again", add_one_again), ("two", add_two)):
        kernel = numba.njit(fn)
        kernel(np.zeros(4, np.int64))
        compiled[name] = kernel
    return compiled


def test_identical_code_is_grouped_and_different_code_is_not(tmp_path):
    groups = asm.identical_code_groups(_kernels(), tmp_path / "memo.json")
    assert groups == [["one", "again"]]


def test_the_answer_is_remembered_under_a_key_of_everything_compiled_in(tmp_path):
    memo = tmp_path / "memo.json"
    kernels = _kernels()
    assert asm.identical_code_groups(kernels, memo) == [["one", "again"]]
    saved = json.loads(memo.read_text())
    assert saved["key"] == asm.code_key(kernels)
    memo.write_text(json.dumps({"key": saved["key"], "groups": [["remembered"]]}))
    assert asm.identical_code_groups(kernels, memo) == [["remembered"]]
    memo.write_text(json.dumps({"key": "another toolchain", "groups": [["stale"]]}))
    assert asm.identical_code_groups(kernels, memo) == [["one", "again"]]


def test_unreadable_assembly_is_unavailable_not_all_different(tmp_path, monkeypatch):
    def broken(kernel):
        raise RuntimeError("no assembly for you")

    monkeypatch.setattr(asm, "kernel_asm", broken)
    assert asm.identical_code_groups(_kernels(), tmp_path / "memo.json") is None


def test_uncompiled_kernels_are_unavailable(tmp_path):
    kernels = _kernels()
    kernels["cold"] = numba.njit(lambda a: a)
    assert asm.identical_code_groups(kernels, tmp_path / "memo.json") is None


def test_the_key_covers_inlined_modules_through_the_kernel_file(monkeypatch):
    """The table kernels' file carries the stamp of what they inline; the key reads the file.

    So a changed helper (a new stamp line) changes the key, not only a changed kernel.
    """
    from pathlib import Path

    from numbades.engines.registry import ENGINES

    kernel = ENGINES["table"].ecb_kernel
    path = Path(kernel.py_func.__code__.co_filename)
    assert "_INLINED_SOURCES_SHA256" in path.read_text()
    before = asm.code_key({"table": kernel})
    real = Path.read_text

    def restamped(self, *args, **kwargs):
        text = real(self, *args, **kwargs)
        return text.replace("_INLINED_SOURCES_SHA256 = \"", "_INLINED_SOURCES_SHA256 = \"0")

    monkeypatch.setattr(Path, "read_text", restamped)
    assert asm.code_key({"table": kernel}) != before


def test_digests_taken_where_the_kernels_compiled_are_used_as_they_are(tmp_path, monkeypatch):
    kernels = _kernels()
    digests = {name: asm.code_digest(kernel) for name, kernel in kernels.items()}
    assert digests["one"] == digests["again"] != digests["two"]

    def no_second_look(kernel):
        raise AssertionError("compiled again although its digest was given")

    monkeypatch.setattr(asm, "kernel_asm", no_second_look)
    assert asm.identical_code_groups(kernels, tmp_path / "memo.json",
                                     digests=digests) == [["one", "again"]]
    digests["two"] = None  # one missing: looked at here, and here that fails
    assert asm.identical_code_groups(kernels, tmp_path / "other.json", digests=digests) is None


def test_cached_code_gives_no_digest_without_a_second_compile(monkeypatch):
    kernel = _kernels()["one"]

    def as_if_cached():
        warnings.warn("Inspection disabled for cached code.", stacklevel=1)
        return {}

    monkeypatch.setattr(kernel, "inspect_asm", as_if_cached)
    assert asm.kernel_asm(kernel, copy=False) == {}
    assert asm.code_digest(kernel, copy=False) is None
    assert asm.code_digest(kernel) is not None  # the copy compiled and read
