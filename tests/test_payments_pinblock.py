"""numbades.payments PIN blocks against outside references, batch against a loop of the oracle.

psec builds and parses ISO 9564-1 formats 0, 2 and 3 (its decoders raise on
a malformed block: our validity mask must be False exactly there); pyemv and
pydukpt give second opinions on formats 2 and 0 (pydukpt also PANs shorter
than 13 digits, and DUKPT-enciphered blocks); pycryptodome's DES3 enciphers.
No library here has format 1, which is format 2 with control nibble 1 and a
free fill: its blocks are checked by turning them into psec's format 2
blocks (control nibble 2, fill F) and back.
"""

from __future__ import annotations

import numpy as np
import pydukpt
import pytest
from Crypto.Cipher import DES3
from hypothesis import given, settings
from hypothesis import strategies as st
from psec import pinblock as psec_pb
from pyemv import sm as pyemv_sm

from numbades.payments import (
    decipher_pin_blocks,
    encipher_pin_blocks,
    pin_block,
    pin_from_block,
    translate_pin_blocks,
)

PSEC_ENCODE = {0: psec_pb.encode_pinblock_iso_0, 2: lambda pin, pan: psec_pb.encode_pinblock_iso_2(pin),
               3: psec_pb.encode_pinblock_iso_3}
PSEC_DECODE = {0: psec_pb.decode_pinblock_iso_0, 2: lambda b, pan: psec_pb.decode_pinblock_iso_2(b),
               3: psec_pb.decode_pinblock_iso_3}


def _digits(rng: np.random.Generator, n: int, lo: int, hi: int) -> list[str]:
    return ["".join(map(str, rng.integers(0, 10, rng.integers(lo, hi + 1)))) for _ in range(n)]


def _key(rng: np.random.Generator) -> bytes:
    return bytes(rng.integers(0, 256, 16, dtype=np.uint8))


def _tdes(key: bytes):
    return DES3.new(key, DES3.MODE_ECB)


def _oracle_pin(fmt: int, block: bytes, pan: str) -> str | None:
    """The oracle's PIN in a clear block, or None where it refuses the block."""
    if fmt == 1:
        return _format1_via_psec(block)
    try:
        return PSEC_DECODE[fmt](block, pan)
    except ValueError:
        return None


def _format1_via_psec(block: bytes) -> str | None:
    """A format 1 block parsed by psec's format 2 decoder: control 1 -> 2, the fill -> F."""
    nibbles = block.hex().upper()
    if nibbles[0] != "1":
        return None
    length = int(nibbles[1], 16)
    fill = 14 - length if 4 <= length <= 12 else 0
    as_format2 = "2" + nibbles[1:16 - fill] + "F" * fill
    try:
        return psec_pb.decode_pinblock_iso_2(bytes.fromhex(as_format2))
    except ValueError:
        return None


@pytest.mark.parametrize("fmt", [0, 2, 3])
def test_built_blocks_match_psec(fmt: int) -> None:
    rng = np.random.default_rng(fmt)
    pins, pans = _digits(rng, 60, 4, 12), _digits(rng, 60, 13, 19)
    got = pin_block(pins, pans, fmt)
    assert got.shape == (60, 8) and got.dtype == np.uint8
    for row, pin, pan in zip(got, pins, pans, strict=True):
        if fmt == 3:  # random fill: psec must read the PIN back, and the head is fixed
            assert psec_pb.decode_pinblock_iso_3(row.tobytes(), pan) == pin
            head = psec_pb.encode_pinblock_iso_3(pin, pan)[:(len(pin) + 2) // 2]
            assert row.tobytes()[:len(head)] == head
        else:
            assert row.tobytes() == PSEC_ENCODE[fmt](pin, pan)


def test_format0_matches_pydukpt_and_format2_matches_pyemv() -> None:
    rng = np.random.default_rng(10)
    pins, pans = _digits(rng, 40, 4, 12), _digits(rng, 40, 8, 19)  # pydukpt takes short PANs
    got0 = pin_block(np.array(pins), np.array(pans, dtype="S19"), 0)
    assert [r.tobytes() for r in got0] == [pydukpt.encode_pin_block(p, a)
                                           for p, a in zip(pins, pans, strict=True)]
    got2 = pin_block(pins, None, 2)
    assert [r.tobytes() for r in got2] == [pyemv_sm.format_iso9564_2_pin_block(p) for p in pins]


def test_format1_is_format2_with_its_own_control_nibble_and_a_random_fill() -> None:
    rng = np.random.default_rng(11)
    pins = _digits(rng, 50, 4, 12)
    got = pin_block(pins, None, 1)
    assert [_format1_via_psec(r.tobytes()) for r in got] == pins
    fills = [r.tobytes().hex()[2 + len(p):] for r, p in zip(got, pins, strict=True)]
    assert len(set("".join(fills))) > 10  # the fill is drawn, not constant
    assert not np.array_equal(pin_block(pins, None, 1), got)


@pytest.mark.parametrize("fmt", [0, 1, 2, 3])
def test_parsing_flags_exactly_the_blocks_the_oracle_refuses(fmt: int) -> None:
    """Good blocks, blocks with a nibble changed, blocks of another PAN: mask == oracle."""
    rng = np.random.default_rng(20 + fmt)
    n = 200
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 13, 19)
    pan_arg = pans if fmt in (0, 3) else None
    blocks = pin_block(pins, pan_arg, fmt).copy()
    for i in range(n):  # spoil two thirds of the rows, one way or another
        kind = i % 3
        if kind == 1:
            pos = rng.integers(0, 16)
            blocks[i, pos // 2] ^= np.uint8(rng.integers(1, 16) << (4 * (1 - pos % 2)))
        elif kind == 2 and fmt in (0, 3):
            pans[i] = _digits(rng, 1, 13, 19)[0]
        elif kind == 2:
            blocks[i] = rng.integers(0, 256, 8, dtype=np.uint8)
    got, valid = pin_from_block(blocks, pans if fmt in (0, 3) else None, fmt)
    want = [_oracle_pin(fmt, b.tobytes(), p) for b, p in zip(blocks, pans, strict=True)]
    assert valid.tolist() == [w is not None for w in want]
    assert got.tolist() == [w or "" for w in want]
    assert 0 < valid.sum() < n


@pytest.mark.parametrize("fmt", [0, 1, 2, 3])
def test_encipher_and_decipher_under_a_key_per_row(fmt: int) -> None:
    rng = np.random.default_rng(30 + fmt)
    n = 70  # past the key-array engine's 64-key crossover
    keys = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 13, 19)
    pan_arg = pans if fmt in (0, 3) else None
    got = encipher_pin_blocks(keys, pins, pan_arg, fmt)
    clear = [_tdes(k.tobytes()).decrypt(r.tobytes()) for k, r in zip(keys, got, strict=True)]
    assert [_oracle_pin(fmt, c, p) for c, p in zip(clear, pans, strict=True)] == pins
    if fmt in (0, 2):  # no random fill: the enciphered blocks themselves match
        assert [r.tobytes() for r in got] == [
            _tdes(k.tobytes()).encrypt(PSEC_ENCODE[fmt](p, a))
            for k, p, a in zip(keys, pins, pans, strict=True)]
    back, valid = decipher_pin_blocks(keys, got, pan_arg, fmt)
    assert valid.all() and back.tolist() == pins


def test_one_key_for_the_batch_and_one_pin_as_a_batch_of_one() -> None:
    key = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")
    got = encipher_pin_blocks(np.frombuffer(key, np.uint8), "1234", "5544332211009966")
    assert got.shape == (1, 8)
    assert got[0].tobytes() == _tdes(key).encrypt(psec_pb.encode_pinblock_iso_0(
        "1234", "5544332211009966"))
    pins = ["1234", "98765", "123456789012"]
    many = encipher_pin_blocks(key, pins, "5544332211009966", 0)
    assert [r.tobytes() for r in many] == [
        _tdes(key).encrypt(psec_pb.encode_pinblock_iso_0(p, "5544332211009966")) for p in pins]


@pytest.mark.parametrize(("from_fmt", "to_fmt"), [(0, 0), (0, 3), (3, 0), (1, 0), (0, 1), (3, 3)])
def test_translate_between_zone_keys(from_fmt: int, to_fmt: int) -> None:
    rng = np.random.default_rng(40 + 4 * from_fmt + to_fmt)
    n = 90
    key_a = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    key_b = _key(rng)
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 13, 19)
    blocks = encipher_pin_blocks(key_a, pins, pans if from_fmt in (0, 3) else None, from_fmt)
    blocks[5] ^= 0x40  # garbage after deciphering
    key_a[9, 0] ^= 1  # a wrong key for row 9
    out, valid = translate_pin_blocks(blocks, pans, key_a, key_b, from_fmt, to_fmt)
    oracle_valid = [_oracle_pin(from_fmt, _tdes(k.tobytes()).decrypt(b.tobytes()), p) is not None
                    for k, b, p in zip(key_a, blocks, pans, strict=True)]
    assert valid.tolist() == oracle_valid
    assert not valid[5]
    for i in range(n):
        if valid[i]:
            assert _oracle_pin(to_fmt, _tdes(key_b).decrypt(out[i].tobytes()), pans[i]) == pins[i]
        else:
            assert not out[i].any()


def test_translate_from_dukpt_to_a_zone_key_matches_pydukpt() -> None:
    rng = np.random.default_rng(50)
    bdk = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")
    zone = _key(rng)
    n = 80
    ksns, blocks = [], []
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 13, 19)
    for i in range(n):
        ksn = pydukpt.ksn_with_counter(bytes(rng.integers(0, 256, 10, dtype=np.uint8)),
                                       int(rng.integers(1, 0x400)))
        ksns.append(ksn)
        key = pydukpt.derive_key(pydukpt.derive_ipek(bdk, ksn), ksn)
        blocks.append(pydukpt.encrypt_pin(key, pins[i], pans[i]))
    ksn_arr = np.frombuffer(b"".join(ksns), np.uint8).reshape(n, 10)
    block_arr = np.frombuffer(b"".join(blocks), np.uint8).reshape(n, 8)
    out, valid = translate_pin_blocks(block_arr, pans, bdk, zone, 0, 0, ksn=ksn_arr)
    assert valid.all()
    assert [r.tobytes() for r in out] == [
        _tdes(zone).encrypt(psec_pb.encode_pinblock_iso_0(p, a)) for p, a in zip(pins, pans, strict=True)]
    # A KSN the standard forbids is refused by name, before any work.
    bad = ksn_arr.copy()
    bad[17] = np.frombuffer(pydukpt.ksn_with_counter(bad[17].tobytes(), 0x1FFFFF), np.uint8)
    with pytest.raises(ValueError, match=r"row 17$"):
        translate_pin_blocks(block_arr, pans, bdk, zone, ksn=bad)


@settings(max_examples=30, deadline=None)
@given(pin=st.text("0123456789", min_size=4, max_size=12),
       pan=st.text("0123456789", min_size=13, max_size=19),
       fmt=st.sampled_from([0, 2]))
def test_hypothesis_one_row(pin: str, pan: str, fmt: int) -> None:
    block = pin_block(pin, pan, fmt)
    assert block[0].tobytes() == PSEC_ENCODE[fmt](pin, pan)
    got, valid = pin_from_block(block[0].tobytes(), pan, fmt)
    assert valid.tolist() == [True] and got.tolist() == [pin]


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: pin_block(["1234", "12a4"], "5544332211009966", 0), ValueError,
     r"only the digits 0-9: row 1$"),
    (lambda: pin_block(["123", "1234", "1234567890123"], "5544332211009966", 0), ValueError,
     r"4 to 12 digits: rows 0, 2$"),
    (lambda: pin_block("1234", None, 0), TypeError, "needs the PAN"),
    (lambda: pin_block("1234", "5544332211009966", 4), ValueError, "format"),
    (lambda: pin_block("1234", "5544332211009966", "0"), TypeError, "format"),
    (lambda: pin_block([1234], "5544332211009966", 0), TypeError, "pin must hold str values; row 0 is not str"),
    (lambda: pin_block(["1234"] * 3, ["5544332211009966"] * 2, 0), ValueError,
     "row counts differ"),
    (lambda: pin_block("1234", "1234567", 0), ValueError, "8 to 19 digits"),
    (lambda: pin_from_block(b"\0" * 7, None, 2), ValueError, "8 bytes"),
    (lambda: encipher_pin_blocks(b"\0" * 8, "1234", None, 2), ValueError, "16 bytes"),
    (lambda: translate_pin_blocks(np.zeros((3, 8), np.uint8), None, b"\1" * 16,
                                  np.zeros((2, 16), np.uint8), 1, 2), ValueError,
     "row counts differ"),
])
def test_bad_arguments(call, error, match) -> None:
    with pytest.raises(error, match=match):
        call()


def test_empty_batches_give_empty_results() -> None:
    key = bytes(range(16))
    none8 = np.zeros((0, 8), np.uint8)
    assert pin_block([], [], 0).shape == (0, 8)
    assert pin_block(np.array([], dtype="U4"), None, 1).shape == (0, 8)
    pins, valid = pin_from_block(none8, [], 0)
    assert pins.shape == valid.shape == (0,)
    assert encipher_pin_blocks(key, [], [], 3).shape == (0, 8)
    out, valid = translate_pin_blocks(none8, [], key, key, ksn=np.zeros((0, 10), np.uint8))
    assert out.shape == (0, 8) and valid.shape == (0,)


def test_one_pin_for_many_pans_and_s_arrays_match_psec() -> None:
    pans = ["5544332211009966", "4000123412341234567", "1234567890123"]
    got = pin_block("98765", np.array(pans, dtype="S19"), 0)
    assert [r.tobytes() for r in got] == [psec_pb.encode_pinblock_iso_0("98765", a) for a in pans]
    pins, valid = pin_from_block(got, np.array(pans), 0)
    assert pins.tolist() == ["98765"] * 3 and valid.all()


def test_bad_digits_are_named_by_row_a_shared_argument_as_row_0() -> None:
    key = bytes(range(16))
    pans = ["5544332211009966", "55443322110099x6", "5544332211009966", "1234567"]
    with pytest.raises(ValueError, match=r"pan must hold only the digits 0-9: row 1$"):
        pin_block("1234", pans[:3], 0)
    with pytest.raises(ValueError, match=r"pan must be 8 to 19 digits: row 3$"):
        pin_from_block(np.zeros((4, 8), np.uint8), pans[:1] * 3 + pans[3:], 0)
    with pytest.raises(ValueError, match=r"pin must hold only the digits 0-9: row 0$"):
        pin_block("12\x0034", pans[:1] * 3, 0)  # an embedded NUL is not a digit
    with pytest.raises(ValueError, match=r"pan must hold only the digits 0-9: row 0$"):
        decipher_pin_blocks(key, np.zeros((3, 8), np.uint8), pans[1], 0)
    with pytest.raises(ValueError, match=r"pan must be 8 to 19 digits: row 3$"):
        translate_pin_blocks(np.zeros((4, 8), np.uint8), pans[:1] * 3 + pans[3:], key, key)
