"""numbades.payments.cards against psec (CVV, Visa PVV, IBM 3624), row by row.

Every expected value comes from psec (``psec.cvv``, ``psec.pin``) or, for the
one rule psec's CVV leaves out (too few decimal digits: A-F count as 0-5),
from pycryptodome's DES with the rule written out here.
"""

from __future__ import annotations

import numpy as np
import psec
import pytest
from Crypto.Cipher import DES, DES3
from hypothesis import given, settings
from hypothesis import strategies as st

from numbades import payments

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning",
                                        "ignore::UserWarning")

KEY = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")
TABLE = "0123456789012345"
FAST = settings(max_examples=8, deadline=None)


def digits(n: int, min_len: int, max_len: int | None = None) -> st.SearchStrategy:
    """Lists of n digit strings."""
    one = st.text("0123456789", min_size=min_len, max_size=max_len or min_len)
    return st.lists(one, min_size=n, max_size=n)


def keys16(n: int) -> st.SearchStrategy:
    return st.lists(st.binary(min_size=16, max_size=16), min_size=n, max_size=n)


def as_array(keys: list[bytes]) -> np.ndarray:
    return np.frombuffer(b"".join(keys), np.uint8).reshape(len(keys), -1)


KEY_ARRAY = np.frombuffer(KEY, np.uint8)


# --- CVV ----------------------------------------------------------------------------------

def visa_cvv(cvk: bytes, pan: str, expiry: str, code: str) -> str:
    """psec's CVV, with the standard's A-F step when psec finds fewer than 3 digits."""
    got = psec.cvv.generate_cvv(cvk, pan, expiry, code)
    if len(got) == 3:
        return got
    block = (pan + expiry + code).ljust(32, "0")
    first = DES.new(cvk[:8], DES.MODE_ECB).encrypt(bytes.fromhex(block[:16]))
    mixed = bytes(a ^ b for a, b in zip(first, bytes.fromhex(block[16:]), strict=True))
    hexed = DES3.new(cvk, DES3.MODE_ECB).encrypt(mixed).hex()
    extra = "".join(str(int(c, 16) - 10) for c in hexed if c in "abcdef")
    assert got == "".join(c for c in hexed if c.isdigit())  # psec's digits are all there are
    return (got + extra)[:3]


def test_cvv_psec_documented_example():
    got = payments.cvv(KEY_ARRAY, "1234567890123456", "9912", "220")
    assert got.shape == (1,)
    assert got[0] == psec.cvv.generate_cvv(KEY, "1234567890123456", "9912", "220")


@FAST
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    keys16(n), digits(n, 1, 19), digits(n, 4), digits(n, 3))))
def test_cvv_key_per_row_equals_psec_loop(case):
    keys, pans, expiries, codes = case
    got = payments.cvv(as_array(keys), pans, expiries, codes)
    want = [visa_cvv(*row) for row in zip(keys, pans, expiries, codes, strict=True)]
    assert got.tolist() == want
    assert payments.verify_cvv(as_array(keys), pans, expiries, codes, want).all()


@FAST
@given(digits(20, 12, 19), digits(20, 4))
def test_cvv_one_key_and_one_service_code_for_the_batch(pans, expiries):
    # CVV2 is the algorithm with service code 000: one value for every row
    got = payments.cvv(KEY_ARRAY, np.array(pans), np.array(expiries, "S4"), "000")
    assert got.tolist() == [visa_cvv(KEY, p, e, "000") for p, e in zip(pans, expiries,
                                                                        strict=True)]
    # and one PAN for every row (a card's CVVs over its expiry dates)
    got = payments.cvv(KEY_ARRAY, pans[0], expiries, "000")
    assert got.tolist() == [visa_cvv(KEY, pans[0], e, "000") for e in expiries]


def test_cvv_with_few_decimal_digits_takes_a_to_f_as_0_to_5():
    # inputs whose last block has fewer than 3 decimal digits (found with pycryptodome)
    pans = ["4936833767531078", "3413978820129362", "9802391517247671"]
    expiries = ["3686", "9700", "9308"]
    got = payments.cvv(KEY_ARRAY, pans, expiries, "101")
    assert all(len(psec.cvv.generate_cvv(KEY, p, e, "101")) < 3  # psec stops short
               for p, e in zip(pans, expiries, strict=True))
    assert got.tolist() == [visa_cvv(KEY, p, e, "101") for p, e in zip(pans, expiries,
                                                                        strict=True)]


def test_verify_cvv_refuses_wrong_values():
    pans = ["4000123412341234", "5100000000000008"]
    good = [psec.cvv.generate_cvv(KEY, p, "2612", "101") for p in pans]
    wrong = [f"{(int(v) + 1) % 1000:03d}" for v in good]
    assert payments.verify_cvv(KEY_ARRAY, pans, "2612", "101", [good[0], wrong[1]]).tolist() \
        == [True, False]


# --- Visa PVV -----------------------------------------------------------------------------

def test_pvv_psec_documented_example():
    assert payments.visa_pvv(KEY_ARRAY, "3", "4524", "1122334455667788")[0] \
        == psec.pin.generate_visa_pvv(KEY, "3", "4524", "1122334455667788")


@FAST
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.lists(st.binary(min_size=8, max_size=8), min_size=n, max_size=n)
    | keys16(n) | st.lists(st.binary(min_size=24, max_size=24), min_size=n, max_size=n),
    digits(n, 1), digits(n, 4), digits(n, 12, 19))))
def test_pvv_key_per_row_equals_psec_loop(case):
    keys, indexes, pins, pans = case
    want = [psec.pin.generate_visa_pvv(*row) for row in zip(keys, indexes, pins, pans,
                                                             strict=True)]
    assert payments.visa_pvv(as_array(keys), indexes, pins, pans).tolist() == want
    assert payments.verify_visa_pvv(as_array(keys), indexes, pins, pans, want).all()


def test_pvv_with_few_decimal_digits_equals_psec():
    # TSPs whose encryption has fewer than 4 decimal digits (found with pycryptodome)
    pans = ["2016321769468959", "7911645086429613", "3163240436392440"]
    pins = ["2539", "3371", "2439"]
    got = payments.visa_pvv(KEY_ARRAY, "3", pins, pans)
    assert got.tolist() == [psec.pin.generate_visa_pvv(KEY, "3", pin, pan)
                            for pin, pan in zip(pins, pans, strict=True)]
    wrong = [p[:3] + str((int(p[3]) + 1) % 10) for p in got.tolist()]
    assert not payments.verify_visa_pvv(KEY_ARRAY, "3", pins, pans, wrong).any()
    assert payments.verify_visa_pvv(KEY_ARRAY, "3", pins, pans, got).all()


# --- IBM 3624 -----------------------------------------------------------------------------

def test_ibm3624_psec_documented_examples():
    args = {"pan_verify_offset": 0, "pan_verify_length": 16, "pan_pad": "F"}
    pan, table = "1122334455667788", "1234567890123456"
    natural = psec.pin.generate_ibm3624_pin(KEY, table, "0000", pan, **args)
    assert payments.ibm3624_natural_pin(KEY_ARRAY, table, pan, **args)[0] == natural
    assert payments.ibm3624_offset(KEY_ARRAY, table, "4524", pan, **args)[0] \
        == psec.pin.generate_ibm3624_offset(KEY, table, "4524", pan, **args)


ibm_params = st.tuples(st.integers(0, 4), st.integers(1, 14) | st.none(),
                       st.sampled_from("0123456789ABCDEFf"))


@FAST
@given(st.integers(1, 10).flatmap(lambda n: st.tuples(
    keys16(n), digits(n, 4, 16), digits(n, 18, 19), ibm_params)))
def test_ibm3624_offsets_and_pins_equal_psec_loop(case):
    keys, pins, pans, (start, length, pad) = case
    k = as_array(keys)
    args = {"pan_verify_offset": start, "pan_verify_length": length, "pan_pad": pad}

    def psec_args(pan: str) -> dict:
        return {"pan_verify_offset": start, "pan_verify_length": length or len(pan) - start,
                    "pan_pad": pad}

    offsets = [psec.pin.generate_ibm3624_offset(key, TABLE, pin, pan, **psec_args(pan))
               for key, pin, pan in zip(keys, pins, pans, strict=True)]
    assert payments.ibm3624_offset(k, TABLE, pins, pans, **args).tolist() == offsets
    assert payments.ibm3624_pin(k, TABLE, offsets, pans, **args).tolist() == pins
    naturals = [psec.pin.generate_ibm3624_pin(key, TABLE, "0" * 6, pan, **psec_args(pan))
                for key, pan in zip(keys, pans, strict=True)]
    assert payments.ibm3624_natural_pin(k, TABLE, pans, length=6, **args).tolist() == naturals
    assert payments.verify_ibm3624_offset(k, TABLE, pins, pans, offsets, **args).all()
    shorter = [o[:-1] if len(o) > 4 else o + "0" for o in offsets]
    assert not payments.verify_ibm3624_offset(k, TABLE, pins, pans, shorter, **args).any()


def test_ibm3624_single_des_pvk_and_one_pin_for_the_batch():
    pvk = bytes.fromhex("0123456789ABCDEF")
    pans = ["4000123412341234", "5100000000000008", "371449635398431"]
    args = {"pan_verify_offset": 3, "pan_verify_length": 11, "pan_pad": "F"}
    got = payments.ibm3624_offset(np.frombuffer(pvk, np.uint8), TABLE, "1234", pans, **args)
    assert got.tolist() == [psec.pin.generate_ibm3624_offset(pvk, TABLE, "1234", p, **args)
                            for p in pans]


# --- a batch large enough for the bitslice paths -------------------------------------------

def test_large_batch_equals_psec_loop():
    rng = np.random.default_rng(7)
    n = 300
    keys = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    pans = ["".join(map(str, rng.integers(0, 10, 16))) for _ in range(n)]
    pins = [f"{v:04d}" for v in rng.integers(0, 10000, n)]
    got = payments.cvv(keys, pans, "2701", "101")
    assert got.tolist() == [visa_cvv(keys[i].tobytes(), pans[i], "2701", "101")
                            for i in range(n)]
    got = payments.visa_pvv(KEY_ARRAY, "1", pins, pans)
    assert got.tolist() == [psec.pin.generate_visa_pvv(KEY, "1", pins[i], pans[i])
                            for i in range(n)]


# --- input checks ---------------------------------------------------------------------------

def test_bad_rows_are_named_before_any_work():
    pans = ["4000123412341234", "40001234x2341234", "5100000000000008", "51"]
    with pytest.raises(ValueError, match=r"pan must hold only the digits 0-9: row 1$"):
        payments.cvv(KEY_ARRAY, pans[:3], "2612", "101")
    with pytest.raises(ValueError, match=r"pan must be 12 to 19 digits: row 3$"):
        payments.visa_pvv(KEY_ARRAY, "1", "1234", [pans[0], pans[2], pans[0], pans[3]])
    with pytest.raises(ValueError, match=r"expiry must be 4 digits: rows 0, 1$"):
        payments.cvv(KEY_ARRAY, pans[0], ["261", "26123"], "101")
    with pytest.raises(ValueError, match="row counts differ"):
        payments.cvv(KEY_ARRAY, [pans[0], pans[2]], ["2612"] * 3, "101")
    with pytest.raises(ValueError, match="pan_verify_offset and pan_verify_length"):
        payments.ibm3624_offset(KEY_ARRAY, TABLE, "1234", ["4000123412341234", "1234567"],
                                pan_verify_offset=2, pan_verify_length=8)
    with pytest.raises(ValueError, match="cvk rows are 16 bytes"):
        payments.cvv(KEY_ARRAY[:8], pans[0], "2612", "101")
    with pytest.raises(ValueError, match="decimalization must be 16 digits"):
        payments.ibm3624_offset(KEY_ARRAY, "0123", "1234", pans[0])


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError, match="pan must be str"):
        payments.cvv(KEY_ARRAY, b"4000123412341234", "2612", "101")
    with pytest.raises(TypeError, match="pan must hold str values; row 1"):
        payments.cvv(KEY_ARRAY, ["4000123412341234", 4000123412341234], "2612", "101")
    with pytest.raises(TypeError, match="uint8"):
        payments.cvv(KEY_ARRAY.astype(np.int64), "4000123412341234", "2612", "101")
    with pytest.raises(TypeError, match="not a 1-D int64 array"):
        payments.visa_pvv(KEY_ARRAY, "1", np.array([1234]), "4000123412341234")
    with pytest.raises(TypeError, match="pan_pad"):
        payments.ibm3624_offset(KEY_ARRAY, TABLE, "1234", "4000123412341234", pan_pad=15)


def test_an_empty_batch_gives_empty_results():
    assert payments.cvv(KEY_ARRAY, [], [], []).shape == (0,)
    assert payments.visa_pvv(KEY_ARRAY, [], [], []).shape == (0,)
    assert payments.ibm3624_offset(KEY_ARRAY, TABLE, [], []).shape == (0,)
    assert payments.verify_cvv(KEY_ARRAY, [], [], [], []).shape == (0,)
