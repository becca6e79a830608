"""The payments' fused digit kernels, on the inputs they read character by character.

The card, EMV and PIN-block functions read NumPy ``U`` arrays (four bytes a
character) and ``S`` arrays (one) straight from memory, place the digits by
word shifts and decimalise cipher output by flagged nibbles.  These tests
give them what those paths are sensitive to (every PAN length, both string
kinds, a NUL inside a string, one key for the batch) and compare with psec
and pyemv, one row at a time.
"""

from __future__ import annotations

import numpy as np
import psec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyemv import kd

from numbades import payments

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::UserWarning")

KEY = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")
KEY_ARRAY = np.frombuffer(KEY, np.uint8)
FAST = settings(max_examples=6, deadline=None)
TABLE = "0123456789012345"


def texts(min_len: int, max_len: int, n: int = 12) -> st.SearchStrategy:
    return st.lists(st.text("0123456789", min_size=min_len, max_size=max_len),
                    min_size=n, max_size=n)


def both_kinds(values: list[str]) -> list[np.ndarray]:
    """The rows as a NumPy U array and as an S array."""
    return [np.array(values), np.array(values).astype("S")]


def psec_cvv(pan: str, expiry: str, code: str) -> str | None:
    """psec's CVV, or None where psec finds fewer than 3 decimal digits (it leaves out the
    A-F step; test_payments_cards checks those rows)."""
    got = psec.cvv.generate_cvv(KEY, pan, expiry, code)
    return got if len(got) == 3 else None


@FAST
@given(texts(1, 19), texts(4, 4), st.text("0123456789", min_size=3, max_size=3))
def test_cvv_every_pan_length_both_string_kinds_equal_psec(pans, expiries, code):
    want = [psec_cvv(p, e, code) for p, e in zip(pans, expiries, strict=True)]
    for pan_rows, expiry_rows in zip(both_kinds(pans), both_kinds(expiries), strict=True):
        got = payments.cvv(KEY_ARRAY, pan_rows, expiry_rows, code).tolist()
        assert [g for g, w in zip(got, want, strict=True) if w] == [w for w in want if w]


@FAST
@given(texts(12, 19), texts(4, 4), st.text("0123456789", min_size=1, max_size=1))
def test_pvv_and_ibm3624_both_string_kinds_equal_psec(pans, pins, pvki):
    want_pvv = [psec.pin.generate_visa_pvv(KEY, pvki, pin, pan)
                for pin, pan in zip(pins, pans, strict=True)]
    want_offset = [psec.pin.generate_ibm3624_offset(KEY, TABLE, pin, pan, 2, 9, "A")
                   for pin, pan in zip(pins, pans, strict=True)]
    want_natural = [psec.pin.generate_ibm3624_pin(KEY, TABLE, "0000", pan, 1, len(pan) - 1, "F")
                    for pan in pans]  # the default: from the offset to the PAN's end
    for pan_rows, pin_rows in zip(both_kinds(pans), both_kinds(pins), strict=True):
        assert payments.visa_pvv(KEY_ARRAY, pvki, pin_rows, pan_rows).tolist() == want_pvv
        assert payments.verify_visa_pvv(KEY_ARRAY, pvki, pin_rows, pan_rows, want_pvv).all()
        assert payments.ibm3624_offset(
            KEY_ARRAY, TABLE, pin_rows, pan_rows, pan_verify_offset=2, pan_verify_length=9,
            pan_pad="A").tolist() == want_offset
        assert payments.ibm3624_natural_pin(KEY_ARRAY, TABLE, pan_rows,
                                            pan_verify_offset=1).tolist() == want_natural


@FAST
@given(texts(1, 19), texts(2, 2))
def test_icc_master_key_every_pan_length_both_string_kinds_equal_pyemv(pans, psns):
    want = [kd.derive_icc_mk_a(KEY, pan, psn) for pan, psn in zip(pans, psns, strict=True)]
    for pan_rows, psn_rows in zip(both_kinds(pans), both_kinds(psns), strict=True):
        got = payments.emv_icc_master_key(KEY_ARRAY, pan_rows, psn_rows)
        assert [row.tobytes() for row in got] == want


@FAST
@given(texts(4, 12), texts(13, 19), st.sampled_from([0, 3]))  # psec takes 13+ digits
def test_pin_blocks_from_s_arrays_equal_psec(pins, pans, fmt):
    encode = {0: psec.pinblock.encode_pinblock_iso_0, 3: psec.pinblock.encode_pinblock_iso_3}
    blocks = payments.pin_block(np.array(pins).astype("S"), np.array(pans).astype("S"), fmt)
    parsed, valid = payments.pin_from_block(blocks, np.array(pans).astype("S"), fmt)
    assert valid.all() and parsed.tolist() == pins
    if fmt == 0:
        assert [b.tobytes() for b in blocks] == [encode[0](p, a) for p, a in
                                                 zip(pins, pans, strict=True)]
    decode = psec.pinblock.decode_pinblock_iso_3 if fmt else psec.pinblock.decode_pinblock_iso_0
    assert [decode(b.tobytes(), a) for b, a in zip(blocks, pans, strict=True)] == pins


@pytest.mark.parametrize("kind", ["U", "S"])
def test_a_nul_or_a_letter_inside_a_string_is_refused_naming_the_row(kind):
    pans = np.array(["4000123412341234", "40001234\x002341234", "400012341234123A",
                     "5100000000000008"]).astype(kind)
    with pytest.raises(ValueError, match=r"pan must hold only the digits 0-9: rows 1, 2$"):
        payments.cvv(KEY_ARRAY, pans, "2612", "101")
    with pytest.raises(ValueError, match=r"pan must hold only the digits 0-9: rows 1, 2$"):
        payments.visa_pvv(KEY_ARRAY, "1", "1234", pans)
    with pytest.raises(ValueError, match=r"pan must hold only the digits 0-9: rows 1, 2$"):
        payments.emv_icc_master_key(KEY_ARRAY, pans, "01")
    with pytest.raises(ValueError, match=r"pin must hold only the digits 0-9: row 0$"):
        payments.pin_block(np.array(["12\x0034", "1234"]).astype(kind), pans[:1], 0)
    with pytest.raises(ValueError, match=r"expiry must hold only the digits 0-9: row 1$"):
        payments.cvv(KEY_ARRAY, pans[:1], np.array(["2612", "26 2"]).astype(kind), "101")


@pytest.mark.parametrize("kind", ["U", "S"])
def test_arrays_wider_than_32_characters_read_alike_and_long_rows_are_refused(kind):
    """The kernels read 32 characters a row; a wider array (NumPy sizes it by its
    longest string) gives the same values, and a row running past 32 is too long."""
    pans = ["4000123412341234", "5100000000000008123", "400012341234"]
    pins, offsets = ["1234", "987654"], ["0000", "4321"]
    wide, pin_wide = np.array(pans, f"{kind}40"), np.array(pins[:1] * 3, f"{kind}36")
    assert payments.cvv(KEY_ARRAY, wide, "2612", "101").tolist() \
        == payments.cvv(KEY_ARRAY, pans, "2612", "101").tolist()
    assert payments.visa_pvv(KEY_ARRAY, "1", pin_wide, wide).tolist() \
        == [psec.pin.generate_visa_pvv(KEY, "1", pins[0], p) for p in pans]
    assert payments.ibm3624_offset(KEY_ARRAY, TABLE, pin_wide, wide).tolist() \
        == [psec.pin.generate_ibm3624_offset(KEY, TABLE, pins[0], p, 0, len(p), "F")
            for p in pans]
    assert payments.verify_ibm3624_offset(KEY_ARRAY, TABLE, np.array(pins, f"{kind}33"),
                                          pans[:2], np.array(offsets, f"{kind}40")).tolist() \
        == [psec.pin.generate_ibm3624_offset(KEY, TABLE, p, a, 0, len(a), "F") == o
            for p, a, o in zip(pins, pans[:2], offsets, strict=True)]
    too_long = np.array([pans[0], "1" * 33, pans[1], "2" * 40], f"{kind}40")
    with pytest.raises(ValueError, match=r"pan must be 12 to 19 digits: rows 1, 3$"):
        payments.visa_pvv(KEY_ARRAY, "1", "1234", too_long)
    with pytest.raises(ValueError, match=r"pin must be 4 to 16 digits: row 1$"):
        payments.ibm3624_offset(KEY_ARRAY, TABLE, np.array(["1234", "5" * 34]).astype(kind),
                                pans[:2])


def test_ibm3624_strings_are_as_wide_as_the_given_ones():
    """Offsets and PINs come back as wide as the PINs or offsets given (at most 16), each
    row its own length: psec's values."""
    pans = ["4000123412341234", "5100000000000008", "4000123412349999"]
    pins = ["1234", "987654", "0000123456789012"]
    got = payments.ibm3624_offset(KEY_ARRAY, TABLE, pins, pans)
    assert got.dtype == np.dtype("U16")
    want = [psec.pin.generate_ibm3624_offset(KEY, TABLE, p, a, 0, 16, "F")
            for p, a in zip(pins, pans, strict=True)]
    assert got.tolist() == want
    assert payments.ibm3624_offset(KEY_ARRAY, TABLE, pins[:2], pans[:2]).dtype \
        == np.dtype("U6")
    assert payments.ibm3624_pin(KEY_ARRAY, TABLE, want, pans).tolist() == pins


def test_option_b_with_one_long_pan_for_a_key_per_row_equals_pyemv():
    """A one-row PAN serves every row: its option B digits go to every row."""
    keys = np.frombuffer(bytes(range(48)), np.uint8).reshape(3, 16)
    pan = "12345678901234567"
    got = payments.emv_icc_master_key(keys, pan, "01", option="B")
    assert [g.tobytes() for g in got] == [kd.derive_icc_mk_b(k.tobytes(), pan, "01")
                                          for k in keys]


def test_verify_forms_compare_digit_words_and_check_the_values_first():
    """verify_cvv and verify_visa_pvv compare each row's Visa digits with the value's digit
    word; a malformed value is refused (naming the rows) before any cipher runs."""
    pans = ["4000123412341234", "5100000000000008", "4000123412349999"]
    cvvs = [psec.cvv.generate_cvv(KEY, p, "2612", "101") for p in pans]
    pvvs = [psec.pin.generate_visa_pvv(KEY, "1", "1234", p) for p in pans]
    flip = [cvvs[0], cvvs[1][:2] + str((int(cvvs[1][2]) + 1) % 10), cvvs[2]]
    assert payments.verify_cvv(KEY_ARRAY, pans, "2612", "101", flip).tolist() \
        == [True, False, True]
    assert payments.verify_cvv(KEY_ARRAY, pans, "2612", "101", cvvs[1]).tolist() \
        == [c == cvvs[1] for c in cvvs]
    assert payments.verify_visa_pvv(KEY_ARRAY, "1", "1234", np.array(pans, "S19"),
                                    np.array(pvvs, "S4")).all()
    assert not payments.verify_visa_pvv(KEY_ARRAY, "1", "1235", pans, pvvs).any()
    with pytest.raises(ValueError, match=r"pvv must be 4 digits: row 1$"):
        payments.verify_visa_pvv(KEY_ARRAY, "1", "1234", pans, [pvvs[0], "123", pvvs[2]])
    with pytest.raises(ValueError, match=r"cvv must hold only the digits 0-9: row 2$"):
        payments.verify_cvv(KEY_ARRAY, pans, "2612", "101", ["123", "456", "7a9"])
    with pytest.raises(ValueError, match="row counts differ"):
        payments.verify_cvv(KEY_ARRAY, pans, "2612", "101", cvvs[:2])
