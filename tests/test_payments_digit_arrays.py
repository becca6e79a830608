"""numbades.payments takes PINs, PANs and other digit values as digit arrays too.

A digit array is an ``(N, L)`` integer array of the values 0-9, a row
shorter than ``L`` ending in ``-1`` padding.  The results are checked against
psec (PIN blocks, CVV) on the same values given as strings, and refusals
name the rows as for strings.
"""

from __future__ import annotations

import numpy as np
import pytest
from Crypto.Cipher import DES3
from psec import cvv as psec_cvv
from psec import pinblock as psec_pb

from numbades.payments import cvv, encipher_pin_blocks, pin_block, pin_from_block

KEY = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")
KEY_ARRAY = np.frombuffer(KEY, np.uint8)


def _digit_array(values: list[str], dtype: str = "int8") -> np.ndarray:
    """Strings of digits as an (N, L) array, short rows padded with -1."""
    width = max(len(v) for v in values)
    out = np.full((len(values), width), -1).astype(dtype)  # one length: no -1 left
    for row, value in enumerate(values):
        out[row, :len(value)] = [int(c) for c in value]
    return out


def _random(rng: np.random.Generator, n: int, lo: int, hi: int) -> list[str]:
    return ["".join(map(str, rng.integers(0, 10, rng.integers(lo, hi + 1)))) for _ in range(n)]


@pytest.mark.parametrize("dtype", ["int8", "int64"])
def test_pin_blocks_from_digit_arrays_match_psec(dtype):
    rng = np.random.default_rng(11)
    pins, pans = _random(rng, 300, 4, 12), _random(rng, 300, 13, 19)
    got = pin_block(_digit_array(pins, dtype), _digit_array(pans, dtype), 0)
    want = [psec_pb.encode_pinblock_iso_0(pin, pan) for pin, pan in zip(pins, pans, strict=True)]
    assert [bytes(row) for row in got] == want
    back, valid = pin_from_block(got, _digit_array(pans, dtype), 0)
    assert valid.all() and back.tolist() == pins


def test_unsigned_digit_arrays_of_one_length():
    rng = np.random.default_rng(12)
    pins = _random(rng, 40, 6, 6)
    pan = "4000123412341234"
    got = pin_block(_digit_array(pins, "uint8"), _digit_array([pan], "uint8"), 0)
    assert [bytes(row) for row in got] == [psec_pb.encode_pinblock_iso_0(p, pan) for p in pins]


def test_one_digit_row_serves_every_row_and_enciphers_as_strings():
    pins = ["1234", "98765", "000000000000"]
    pan = "5544332211009966"
    got = encipher_pin_blocks(KEY_ARRAY, _digit_array(pins), _digit_array([pan]), 0)
    tdes = DES3.new(KEY, DES3.MODE_ECB)
    want = [tdes.encrypt(psec_pb.encode_pinblock_iso_0(p, pan)) for p in pins]
    assert [bytes(row) for row in got] == want


def test_card_values_take_digit_arrays():
    pans, expiries = ["4123456789012345", "4999988887777000"], ["8701", "2612"]
    got = cvv(KEY_ARRAY, _digit_array(pans), _digit_array(expiries), _digit_array(["101"]))
    want = [psec_cvv.generate_cvv(KEY, pan, exp, "101") for pan, exp in zip(pans, expiries, strict=True)]
    assert got.tolist() == want


@pytest.mark.parametrize("row, message", [
    ([1, 2, 10, 4], "must hold only the digits 0-9"),     # not a digit
    ([1, 2, -2, 4], "must hold only the digits 0-9"),     # negative, not padding
    ([1, -1, 3, 4], "pin must"),                          # padding inside the row
    ([1, 2, 3, -1], "pin must be 4 to 12 digits"),        # too short once the padding goes
])
def test_bad_digit_rows_are_refused_by_number(row, message):
    pins = np.array([[1, 2, 3, 4], row, [5, 6, 7, 8]], np.int16)
    with pytest.raises(ValueError, match=f"{message}.*row 1$"):
        pin_block(pins, "4000123412341234", 0)


def test_one_dimensional_integer_arrays_are_refused():
    # np.array([1234]) is a PIN as a number, not digits: refused, not guessed at
    with pytest.raises(TypeError, match="2-D integer array of digits"):
        pin_block(np.array([1234]), "4000123412341234", 0)
    with pytest.raises(TypeError, match="float64"):
        pin_block(np.ones((2, 4)), "4000123412341234", 0)
