"""numbades.payments.emv against pyemv (``pyemv.kd``, ``pyemv.ac``), row by row."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyemv import ac, kd

from numbades import payments

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning",
                                        "ignore::UserWarning")

KEY = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")
KEY_ARRAY = np.frombuffer(KEY, np.uint8)
FAST = settings(max_examples=8, deadline=None)


def rows(values: list[bytes]) -> np.ndarray:
    return np.frombuffer(b"".join(values), np.uint8).reshape(len(values), -1)


def binary(n: int, width: int) -> st.SearchStrategy:
    return st.lists(st.binary(min_size=width, max_size=width), min_size=n, max_size=n)


def digits(n: int, min_len: int, max_len: int) -> st.SearchStrategy:
    one = st.text("0123456789", min_size=min_len, max_size=max_len)
    return st.lists(one, min_size=n, max_size=n)


# --- ICC master keys --------------------------------------------------------------------------

@pytest.mark.parametrize("pan, psn", [("99012345678901234", "45"),
                                      ("12345678901234567", "01"),
                                      ("5123456789012345", "00")])
def test_icc_master_key_pyemv_documented_examples(pan, psn):
    assert payments.emv_icc_master_key(KEY_ARRAY, pan, psn)[0].tobytes() \
        == kd.derive_icc_mk_a(KEY, pan, psn)
    assert payments.emv_icc_master_key(KEY_ARRAY, pan, psn, option="B")[0].tobytes() \
        == kd.derive_icc_mk_b(KEY, pan, psn)


@FAST
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    binary(n, 16), digits(n, 1, 19), digits(n, 2, 2))), st.sampled_from("AB"))
def test_icc_master_keys_equal_pyemv_loop(case, option):
    keys, pans, psns = case
    derive = kd.derive_icc_mk_a if option == "A" else kd.derive_icc_mk_b
    want = rows([derive(*row) for row in zip(keys, pans, psns, strict=True)])
    got = payments.emv_icc_master_key(rows(keys), pans, psns, option=option)
    np.testing.assert_array_equal(got, want)


@FAST
@given(digits(20, 12, 19), st.sampled_from("AB"))
def test_icc_master_keys_one_issuer_key_default_psn(pans, option):
    derive = kd.derive_icc_mk_a if option == "A" else kd.derive_icc_mk_b
    got = payments.emv_icc_master_key(KEY_ARRAY, np.array(pans, "S19"), option=option)
    np.testing.assert_array_equal(got, rows([derive(KEY, p) for p in pans]))


# --- session keys -----------------------------------------------------------------------------

def test_session_key_pyemv_documented_example():
    got = payments.emv_session_key(KEY_ARRAY, bytes.fromhex("001C"))
    assert got.shape == (1, 16)
    assert got[0].tobytes() == kd.derive_common_sk(KEY, bytes.fromhex("001C000000000000"))


@FAST
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(binary(n, 16), binary(n, 2),
                                                      binary(n, 4))))
def test_session_keys_equal_pyemv_loop(case):
    keys, atcs, uns = case
    want = rows([kd.derive_common_sk(k, a + bytes(6)) for k, a in zip(keys, atcs, strict=True)])
    np.testing.assert_array_equal(payments.emv_session_key(rows(keys), rows(atcs)), want)
    want = rows([kd.derive_common_sk(k, a + bytes(2) + u)
                 for k, a, u in zip(keys, atcs, uns, strict=True)])
    np.testing.assert_array_equal(payments.emv_session_key(rows(keys), rows(atcs), rows(uns)),
                                  want)


# --- ARQC and ARPC --------------------------------------------------------------------------

def test_arqc_and_arpc_pyemv_documented_examples():
    sk = bytes.fromhex("AAAAAAAAAAAAAAAABBBBBBBBBBBBBBBB")
    data = bytes.fromhex("000000002000" "000000000000" "0124" "0000008000" "0124" "110309"
                         "00" "3804823E" "5800" "0001")
    key = np.frombuffer(sk, np.uint8)
    assert payments.emv_arqc(key, data)[0].tobytes() == ac.generate_ac(sk, data)
    arqc = bytes.fromhex("1234567890ABCDEF")
    assert payments.emv_arpc(key, arqc, bytes(2))[0].tobytes() \
        == ac.generate_arpc_1(sk, arqc, bytes(2))
    sk2 = bytes.fromhex("29B33180E567CE38EA4CBC9D753B0E61")
    data2 = bytes.fromhex("0123456789ABCDEF0123456789ABCDEF")
    assert payments.emv_arqc(np.frombuffer(sk2, np.uint8), data2)[0].tobytes() \
        == ac.generate_ac(sk2, data2)


@FAST
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    binary(n, 16), st.integers(1, 40).flatmap(lambda width: binary(n, width)))),
    st.sampled_from([1, 2]))
def test_arqc_equals_pyemv_loop(case, padding):
    keys, data = case
    kind = ac.PaddingType.VISA if padding == 1 else ac.PaddingType.EMV
    want = rows([ac.generate_ac(k, d, kind) for k, d in zip(keys, data, strict=True)])
    got = payments.emv_arqc(rows(keys), rows(data), padding=padding)
    np.testing.assert_array_equal(got, want)
    assert payments.verify_emv_arqc(rows(keys), rows(data), want, padding=padding).all()
    wrong = want.copy()
    wrong[:, 7] ^= 1
    assert not payments.verify_emv_arqc(rows(keys), rows(data), wrong, padding=padding).any()


@FAST
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(binary(n, 16), binary(n, 8),
                                                      binary(n, 2))))
def test_arpc_equals_pyemv_loop(case):
    keys, arqcs, arcs = case
    want = rows([ac.generate_arpc_1(*row) for row in zip(keys, arqcs, arcs, strict=True)])
    np.testing.assert_array_equal(payments.emv_arpc(rows(keys), rows(arqcs), rows(arcs)), want)
    assert payments.verify_emv_arpc(rows(keys), rows(arqcs), rows(arcs), want).all()
    assert not payments.verify_emv_arpc(rows(keys), rows(arqcs), rows(arcs), want ^ 0x80).any()
    # one ARQC and ARC for every key, and one key (a key array of one row) for every row
    np.testing.assert_array_equal(payments.emv_arpc(rows(keys[:1]), rows(arqcs), rows(arcs)),
                                  rows([ac.generate_arpc_1(keys[0], q, c)
                                        for q, c in zip(arqcs, arcs, strict=True)]))
    one = rows([ac.generate_arpc_1(k, arqcs[0], arcs[0]) for k in keys])
    np.testing.assert_array_equal(payments.emv_arpc(rows(keys), arqcs[0], arcs[0]), one)


def test_the_whole_chain_for_a_large_batch_equals_pyemv():
    """Issuer key -> ICC master keys -> session keys -> ARQC and ARPC, 300 rows."""
    rng = np.random.default_rng(11)
    n = 300
    pans = ["".join(map(str, rng.integers(0, 10, 16))) for _ in range(n)]
    atcs = rng.integers(0, 256, (n, 2), dtype=np.uint8)
    data = rng.integers(0, 256, (n, 29), dtype=np.uint8)
    mk = payments.emv_icc_master_key(KEY_ARRAY, pans, "01")
    sk = payments.emv_session_key(mk, atcs)
    arqc = payments.emv_arqc(sk, data)
    arpc = payments.emv_arpc(sk, arqc, b"\x30\x30")
    for i in range(n):
        icc = kd.derive_icc_mk_a(KEY, pans[i], "01")
        session = kd.derive_common_sk(icc, atcs[i].tobytes() + bytes(6))
        cryptogram = ac.generate_ac(session, data[i].tobytes())
        assert (mk[i].tobytes(), sk[i].tobytes(), arqc[i].tobytes(), arpc[i].tobytes()) \
            == (icc, session, cryptogram, ac.generate_arpc_1(session, cryptogram, b"00"))


# --- input checks ---------------------------------------------------------------------------

def test_bad_input_is_refused_naming_rows():
    with pytest.raises(ValueError, match="option must be 'A' or 'B'"):
        payments.emv_icc_master_key(KEY_ARRAY, "5123456789012345", option="C")
    with pytest.raises(ValueError, match=r"psn must be 2 digits: row 1$"):
        payments.emv_icc_master_key(KEY_ARRAY, ["5123456789012345"] * 2, ["01", "1"])
    with pytest.raises(ValueError, match=r"pan must be 1 to 19 digits: row 0$"):
        payments.emv_icc_master_key(KEY_ARRAY, ["51234567890123456789", "5"])
    with pytest.raises(ValueError, match="atc rows are 2 bytes"):
        payments.emv_session_key(KEY_ARRAY, bytes(3))
    with pytest.raises(ValueError, match="row counts differ"):
        payments.emv_arqc(np.zeros((3, 16), np.uint8), np.zeros((2, 8), np.uint8))
    with pytest.raises(ValueError, match="padding must be 1"):
        payments.emv_arqc(KEY_ARRAY, bytes(8), padding=3)
    with pytest.raises(ValueError, match="arqc rows are 8 bytes"):
        payments.emv_arpc(KEY_ARRAY, bytes(7), bytes(2))
    with pytest.raises(TypeError, match="session_key must be a uint8 array"):
        payments.emv_arpc(KEY_ARRAY.astype(np.uint16), bytes(8), bytes(2))
    with pytest.raises(TypeError, match="data must be bytes-like"):
        payments.emv_arqc(KEY_ARRAY, "00112233")


def test_an_empty_batch_gives_empty_results():
    none16 = np.zeros((0, 16), np.uint8)
    assert payments.emv_icc_master_key(KEY_ARRAY, [], []).shape == (0, 16)
    assert payments.emv_session_key(none16, np.zeros((0, 2), np.uint8)).shape == (0, 16)
    assert payments.emv_arqc(none16, np.zeros((0, 29), np.uint8)).shape == (0, 8)
    assert payments.emv_arpc(none16, np.zeros((0, 8), np.uint8),
                             np.zeros((0, 2), np.uint8)).shape == (0, 8)
