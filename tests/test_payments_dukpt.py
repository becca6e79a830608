"""numbades.payments DUKPT against an outside reference: the pydukpt package.

pydukpt (ANSI X9.24-1:2009 host side: IPEK, transaction key, PIN / MAC /
data variants) is run row by row and compared with one batch call.  (The
``dukpt`` package is not used: it pins pycryptodome 3.14.1, which conflicts
with the test extra, and it handles only counters below 0x200.)  Rows the standard
forbids (counter 0, more than ten 1 bits) are found with pydukpt's own
counter reader and limit, and must be refused by name.
"""

from __future__ import annotations

import numpy as np
import pydukpt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numbades.payments import dukpt_ipek, dukpt_key

BDK = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")  # the X9.24-1 example BDK
KSN_BASE = bytes.fromhex("FFFF9876543210E00000")  # the X9.24-1 example initial KSN

ORACLE_VARIANTS = {
    None: lambda k: k,
    "pin": pydukpt.pin_key,
    "mac-request": pydukpt.mac_request_key,
    "mac-response": pydukpt.mac_response_key,
    "data-request": pydukpt.data_request_key,
    "data-response": pydukpt.data_response_key,
}


def _oracle_key(bdk: bytes, ksn: bytes, variant: str | None) -> bytes:
    return ORACLE_VARIANTS[variant](pydukpt.derive_key(pydukpt.derive_ipek(bdk, ksn), ksn))


def _allowed(ksn: bytes) -> bool:
    counter = pydukpt.ksn_counter(ksn)
    return counter != 0 and counter.bit_count() <= pydukpt.MAX_COUNTER_ONE_BITS


def _ksns(rng: np.random.Generator, n: int, *, max_counter: int = 1 << 21) -> np.ndarray:
    """n random KSNs whose counters the standard allows."""
    ksns = rng.integers(0, 256, (n, 10), dtype=np.uint8)
    counters = rng.integers(1, max_counter, n)
    for i in range(n):
        while int(counters[i]).bit_count() > pydukpt.MAX_COUNTER_ONE_BITS:
            counters[i] = rng.integers(1, max_counter)
        ksns[i] = np.frombuffer(pydukpt.ksn_with_counter(ksns[i].tobytes(), int(counters[i])),
                                np.uint8)
    return ksns


def test_published_example_chain_matches_pydukpt() -> None:
    """The X9.24-1 example BDK and KSN, the first counters a device uses, every variant."""
    ksn, rows = KSN_BASE, []
    for _ in range(24):
        ksn = pydukpt.next_ksn(ksn)
        rows.append(ksn)
    ksns = np.frombuffer(b"".join(rows), np.uint8).reshape(-1, 10)
    for variant in ORACLE_VARIANTS:
        got = dukpt_key(BDK, ksns, variant)
        assert got.shape == (24, 16) and got.dtype == np.uint8
        assert [r.tobytes() for r in got] == [_oracle_key(BDK, k, variant) for k in rows]


def test_ipek_matches_pydukpt() -> None:
    rng = np.random.default_rng(1)
    ksns = _ksns(rng, 40, max_counter=1 << 16)
    got = dukpt_ipek(BDK, ksns)
    for row, ksn in zip(got, ksns, strict=True):
        assert row.tobytes() == pydukpt.derive_ipek(BDK, ksn.tobytes())


@pytest.mark.parametrize("variant", list(ORACLE_VARIANTS))
def test_random_batch_with_a_bdk_per_row(variant: str | None) -> None:
    rng = np.random.default_rng(3)
    n = 70  # past the key-array engine's 64-key crossover
    bdks = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    ksns = _ksns(rng, n)
    got = dukpt_key(bdks, ksns, variant)
    want = [_oracle_key(b.tobytes(), k.tobytes(), variant) for b, k in zip(bdks, ksns, strict=True)]
    assert [r.tobytes() for r in got] == want
    assert [r.tobytes() for r in dukpt_ipek(bdks, ksns)] == [
        pydukpt.derive_ipek(b.tobytes(), k.tobytes()) for b, k in zip(bdks, ksns, strict=True)]


@settings(max_examples=25, deadline=None)
@given(bdk=st.binary(min_size=16, max_size=16), ksn=st.binary(min_size=10, max_size=10),
       variant=st.sampled_from(list(ORACLE_VARIANTS)))
def test_one_value_is_a_batch_of_one(bdk: bytes, ksn: bytes, variant: str | None) -> None:
    """Any BDK and KSN: refused exactly when the standard forbids the counter, else the oracle."""
    assert dukpt_ipek(bdk, ksn)[0].tobytes() == pydukpt.derive_ipek(bdk, ksn)
    if _allowed(ksn):
        got = dukpt_key(np.frombuffer(bdk, np.uint8), np.frombuffer(ksn, np.uint8), variant)
        assert got.shape == (1, 16)
        assert got[0].tobytes() == _oracle_key(bdk, ksn, variant)
    else:
        with pytest.raises(ValueError, match="row 0"):
            dukpt_key(bdk, ksn, variant)


def test_forbidden_counters_are_refused_naming_the_rows() -> None:
    rng = np.random.default_rng(4)
    ksns = _ksns(rng, 12)
    ksns[3] = np.frombuffer(pydukpt.ksn_with_counter(ksns[3].tobytes(), 0), np.uint8)
    ksns[7] = np.frombuffer(pydukpt.ksn_with_counter(ksns[7].tobytes(), 0x1FFC00), np.uint8)
    ksns[9] = np.frombuffer(pydukpt.ksn_with_counter(ksns[9].tobytes(), 0x0007FF), np.uint8)
    refused = [i for i, k in enumerate(ksns) if not _allowed(k.tobytes())]
    assert refused == [3, 7, 9]  # the oracle agrees on which rows are forbidden
    with pytest.raises(ValueError, match=r"counter 0.*row 3$"):
        dukpt_key(BDK, ksns)
    ksns[3] = ksns[0]
    with pytest.raises(ValueError, match=r"more than 10 bits.*rows 7, 9$"):
        dukpt_key(BDK, ksns, "pin")
    ksns[[7, 9]] = ksns[0]
    assert all(_allowed(k.tobytes()) for k in ksns)
    assert [r.tobytes() for r in dukpt_key(BDK, ksns, "pin")] == [
        _oracle_key(BDK, k.tobytes(), "pin") for k in ksns]
    # The highest counter a device may use (ten bits) is accepted.
    top = pydukpt.ksn_with_counter(KSN_BASE, pydukpt.MAX_COUNTER)
    assert dukpt_key(BDK, top)[0].tobytes() == _oracle_key(BDK, top, None)


def test_one_ksn_for_every_bdk() -> None:
    rng = np.random.default_rng(5)
    bdks = rng.integers(0, 256, (5, 16), dtype=np.uint8)
    ksn = pydukpt.ksn_with_counter(KSN_BASE, 0x000123)
    got = dukpt_key(bdks, ksn, "mac-request")
    assert [r.tobytes() for r in got] == [_oracle_key(b.tobytes(), ksn, "mac-request")
                                          for b in bdks]


@pytest.mark.parametrize(("bdk", "ksn", "variant", "error", "match"), [
    (BDK[:15], KSN_BASE, None, ValueError, "bdk rows are 16 bytes"),
    (BDK, KSN_BASE[:9], None, ValueError, "ksn rows are 10 bytes"),
    ("00" * 16, KSN_BASE, None, TypeError, "bdk must be bytes-like"),
    (np.zeros((2, 16), np.uint16), KSN_BASE, None, TypeError, "uint8"),
    (np.zeros((2, 16), np.uint8), np.zeros((3, 10), np.uint8), None, ValueError,
     "row counts differ"),
    (np.zeros((2, 8), np.uint8), KSN_BASE, None, ValueError, "shape"),
    (BDK, pydukpt.ksn_with_counter(KSN_BASE, 1), "PIN", ValueError, "variant"),
    (BDK, pydukpt.ksn_with_counter(KSN_BASE, 1), 1, TypeError, "variant"),
])
def test_bad_arguments(bdk, ksn, variant, error, match) -> None:
    with pytest.raises(error, match=match):
        dukpt_key(bdk, ksn, variant)


def test_empty_batches_give_empty_results() -> None:
    none = np.zeros((0, 10), np.uint8)
    assert dukpt_ipek(BDK, none).shape == (0, 16)
    assert dukpt_key(BDK, none, "data-response").shape == (0, 16)
