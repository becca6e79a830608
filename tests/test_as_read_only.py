"""``engines.jit.as_read_only``: the same array, typed read-only, so a helper compiles once."""

import numpy as np
from numba import njit

from numbades.engines.jit import always_inline, as_read_only, inline


@inline
def _first(words):
    always_inline()
    return words[0]


@njit
def _both(read_only, writable):
    """The helper on a read-only array and on a writable one passed through as_read_only."""
    return _first(read_only) + _first(as_read_only(writable))


@njit
def _alias(writable):
    """as_read_only's result is a view of its argument, not a copy."""
    view = as_read_only(writable)
    writable[1] = 7
    return view[1]


def test_a_helper_given_both_kinds_compiles_one_signature():
    read_only = np.arange(4, dtype=np.int64)
    read_only.flags.writeable = False
    writable = np.arange(10, 14, dtype=np.int64)
    assert _both(read_only, writable) == 10
    assert len(_first.signatures) == 1
    assert _first.signatures[0][0].mutable is False


def test_as_read_only_is_a_view_and_keeps_the_array_alive():
    for _ in range(1000):  # a reference miscount would free or leak the buffer
        writable = np.zeros(4, dtype=np.int64)
        assert _alias(writable) == 7
        assert writable[1] == 7
