"""The PIN block kernels' two paths against psec (pydukpt for PANs shorter than 13 digits,
which psec refuses): the fast one (strings read as bytes, eight
characters to a word, blocks of 256 rows) and the exact one (rows it refuses, wide strings).

Every input kind (a list of str, NumPy ``U`` and ``S`` arrays, one value for every row),
string widths on both sides of what the fast kernels read (PINs 16 characters, PANs 24),
batch sizes around the kernels' block of rows, and malformed rows (letters, NULs inside,
characters outside ASCII whose low byte is a digit's, wrong lengths), which must be
refused naming exactly those rows.
"""

from __future__ import annotations

import numpy as np
import pydukpt
import pytest
from Crypto.Cipher import DES3
from hypothesis import given, settings
from hypothesis import strategies as st
from psec import pinblock as psec_pb

from numbades.payments import (
    decipher_pin_blocks,
    encipher_pin_blocks,
    pin_block,
    pin_from_block,
    translate_pin_blocks,
)

KEY = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")
ENCODE = {0: psec_pb.encode_pinblock_iso_0, 2: lambda pin, pan: psec_pb.encode_pinblock_iso_2(pin)}


def _digits(rng: np.random.Generator, n: int, lo: int, hi: int) -> list[str]:
    return ["".join(map(str, rng.integers(0, 10, rng.integers(lo, hi + 1)))) for _ in range(n)]


def _as(kind: str, values: list[str], width: int | None = None):
    """The values as a list, a U array or an S array (of ``width`` characters if given)."""
    if kind == "list":
        return values
    return np.array(values, dtype=f"{kind}{width}" if width else kind)


def _psec_blocks(fmt: int, pins: list[str], pans: list[str]) -> list[bytes]:
    """The oracles' blocks: psec's (pydukpt's for the PANs shorter than psec takes)."""
    return [pydukpt.encode_pin_block(p, a) if fmt == 0 and len(a) < 13 else ENCODE[fmt](p, a)
            for p, a in zip(pins, pans, strict=True)]


@pytest.mark.parametrize("kind", ["list", "U", "S"])
@pytest.mark.parametrize(("pin_width", "pan_width"), [(None, None), (16, 24), (17, 25), (40, 19)])
def test_every_input_kind_and_width_equals_psec(kind: str, pin_width: int | None,
                                                pan_width: int | None) -> None:
    rng = np.random.default_rng(hash((kind, pin_width, pan_width)) % 2**32)
    n = 300  # past one block of rows
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 8, 19)
    pin_arg, pan_arg = _as(kind, pins, pin_width), _as(kind, pans, pan_width)
    got = pin_block(pin_arg, pan_arg, 0)
    assert [r.tobytes() for r in got] == _psec_blocks(0, pins, pans)
    back, valid = pin_from_block(got, pan_arg, 0)
    assert valid.all() and back.tolist() == pins
    enc = encipher_pin_blocks(KEY, pin_arg, pan_arg, 0)
    assert [r.tobytes() for r in enc] == [DES3.new(KEY, DES3.MODE_ECB).encrypt(b)
                                          for b in _psec_blocks(0, pins, pans)]
    clear, valid = decipher_pin_blocks(KEY, enc, pan_arg, 0)
    assert valid.all() and clear.tolist() == pins


@pytest.mark.parametrize("n", [1, 2, 255, 256, 257, 513])
@pytest.mark.parametrize("kind", ["U", "S"])
def test_batch_sizes_around_the_block_of_rows(n: int, kind: str) -> None:
    rng = np.random.default_rng(n)
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 13, 19)
    got = pin_block(_as(kind, pins), _as(kind, pans), 0)
    assert [r.tobytes() for r in got] == _psec_blocks(0, pins, pans)
    back, valid = pin_from_block(got, _as(kind, pans), 0)
    assert valid.all() and back.tolist() == pins
    out, valid = translate_pin_blocks(encipher_pin_blocks(KEY, pins, pans), _as(kind, pans),
                                      KEY, KEY[::-1], 0, 2)
    assert valid.all()
    assert [r.tobytes() for r in out] == [DES3.new(KEY[::-1], DES3.MODE_ECB).encrypt(b)
                                          for b in _psec_blocks(2, pins, pans)]


@pytest.mark.parametrize("kind", ["list", "U", "S"])
def test_one_value_for_every_row(kind: str) -> None:
    pans = ["5544332211009966", "4000123412341234567", "12345678"]
    pins = ["98765", "1234", "123456789012"]
    one_pin = pin_block(_as(kind, pins[:1]), _as(kind, pans), 0)
    assert [r.tobytes() for r in one_pin] == _psec_blocks(0, pins[:1] * 3, pans)
    one_pan = pin_block(_as(kind, pins), _as(kind, pans[:1]), 0)
    assert [r.tobytes() for r in one_pan] == _psec_blocks(0, pins, pans[:1] * 3)
    back, valid = pin_from_block(one_pan, _as(kind, pans[:1]), 0)
    assert valid.all() and back.tolist() == pins


# Strings that are not 4..12 (PIN) or 8..19 (PAN) decimal digits, with the error they get.
_BAD_PINS = [("12a4", "only the digits"), ("12\x0034", "only the digits"),
             ("1\u066334", "only the digits"), ("12\u013034", "only the digits"),
             ("123", "4 to 12 digits"), ("1234567890123", "4 to 12 digits"),
             ("1\x00\x00\x00\x00\x00\x005", "only the digits")]
_BAD_PANS = [("55443322110099x6", "only the digits"), ("5544332211\x00099966", "only the digits"),
             ("55443322110\u0130996", "only the digits"), ("1234567", "8 to 19 digits"),
             ("12345678901234567890", "8 to 19 digits")]


@pytest.mark.parametrize(("bad", "message"), _BAD_PINS)
@pytest.mark.parametrize("kind", ["list", "U"])
def test_a_bad_pin_is_refused_naming_its_row(bad: str, message: str, kind: str) -> None:
    rng = np.random.default_rng(7)
    n = 300
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 13, 19)
    for row in (0, 1, 256, n - 1):
        spoiled = list(pins)
        spoiled[row] = bad
        with pytest.raises(ValueError, match=rf"pin must be {message}|pin must hold {message}"):
            pin_block(_as(kind, spoiled), pans, 0)
        with pytest.raises(ValueError, match=rf": row {row}$"):
            encipher_pin_blocks(KEY, _as(kind, spoiled), pans, 2)


@pytest.mark.parametrize(("bad", "message"), _BAD_PANS)
@pytest.mark.parametrize("kind", ["list", "U"])
def test_a_bad_pan_is_refused_naming_its_row_before_any_cipher(bad: str, message: str,
                                                               kind: str) -> None:
    rng = np.random.default_rng(8)
    n = 300
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 13, 19)
    blocks = np.zeros((n, 8), np.uint8)
    for row in (0, 255, n - 1):
        spoiled = list(pans)
        spoiled[row] = bad
        pan_arg = _as(kind, spoiled)
        for call, args in ((pin_block, (pins, pan_arg, 3)), (pin_from_block, (blocks, pan_arg, 0)),
                           (decipher_pin_blocks, (KEY, blocks, pan_arg, 0)),
                           (translate_pin_blocks, (blocks, pan_arg, KEY, KEY, 1, 0))):
            with pytest.raises(ValueError, match=rf"pan must (be|hold) .*{message}.*: row {row}$"):
                call(*args)


def test_s_arrays_refuse_bytes_outside_ascii_and_inner_nuls() -> None:
    pins = np.array([b"1234", b"12\xb34", b"5678"], dtype="S12")
    with pytest.raises(ValueError, match=r"pin must hold only the digits 0-9: row 1$"):
        pin_block(pins, "5544332211009966", 0)
    pans = np.array([b"5544332211009966", b"55443322\x0009966", b"5544332211009966"])
    with pytest.raises(ValueError, match=r"pan must hold only the digits 0-9: row 1$"):
        pin_block("1234", pans, 0)


def test_the_validity_mask_of_s_and_u_pans_matches_psec() -> None:
    rng = np.random.default_rng(9)
    n = 270
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 13, 19)
    blocks = pin_block(pins, pans, 0).copy()
    blocks[::3, 5] ^= 0x10  # a PAN digit changed: a wrong fill after the PAN is XORed out
    want = []
    for b, a in zip(blocks, pans, strict=True):
        try:
            want.append(psec_pb.decode_pinblock_iso_0(b.tobytes(), a))
        except ValueError:
            want.append("")
    for kind in ("U", "S"):
        got, valid = pin_from_block(blocks, _as(kind, pans), 0)
        assert got.tolist() == want and valid.tolist() == [w != "" for w in want]


@settings(max_examples=25, deadline=None)
@given(rows=st.lists(st.tuples(st.text("0123456789", min_size=4, max_size=12),
                               st.text("0123456789", min_size=8, max_size=19)),
                     min_size=1, max_size=40),
       kind=st.sampled_from(["list", "U", "S"]), fmt=st.sampled_from([0, 2]))
def test_hypothesis_batches(rows: list[tuple[str, str]], kind: str, fmt: int) -> None:
    pins, pans = [p for p, _ in rows], [a for _, a in rows]
    got = pin_block(_as(kind, pins), _as(kind, pans), fmt)
    assert [r.tobytes() for r in got] == _psec_blocks(fmt, pins, pans)
    back, valid = pin_from_block(got, _as(kind, pans), fmt)
    assert valid.all() and back.tolist() == pins


@pytest.mark.parametrize("kind", ["list", "U", "S"])
def test_clean_rows_of_the_usual_widths_never_take_the_exact_path(kind: str, monkeypatch) -> None:
    from numbades.payments import _pin_kernels

    def refused(*args: object) -> None:
        raise AssertionError("the exact kernel ran")

    monkeypatch.setattr(_pin_kernels, "encode_blocks", refused)
    monkeypatch.setattr(_pin_kernels, "pan_fields", refused)
    rng = np.random.default_rng(10)
    pins, pans = _digits(rng, 40, 4, 12), _digits(rng, 40, 13, 19)
    got = pin_block(_as(kind, pins, 16), _as(kind, pans, 24), 0)
    assert [r.tobytes() for r in got] == _psec_blocks(0, pins, pans)
    translate_pin_blocks(encipher_pin_blocks(KEY, _as(kind, pins), _as(kind, pans), 3),
                         _as(kind, pans), KEY, KEY, 3, 0)


@pytest.mark.parametrize("n", [257, 513])
@pytest.mark.parametrize("kind", ["U", "S"])
def test_one_pan_or_one_pin_across_blocks_of_rows_equals_psec(n: int, kind: str) -> None:
    # formats 0 and 3 make the PAN fields in the pass over the PINs or blocks: one PAN for
    # every row is read in the first block of rows and serves the later ones
    rng = np.random.default_rng(n + 11)
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 13, 19)
    one_pan = pin_block(_as(kind, pins), _as(kind, pans[:1]), 0)
    assert [r.tobytes() for r in one_pan] == _psec_blocks(0, pins, pans[:1] * n)
    back, valid = pin_from_block(one_pan, _as(kind, pans[:1]), 0)
    assert valid.all() and back.tolist() == pins
    one_pin = pin_block(_as(kind, pins[:1]), _as(kind, pans), 0)
    assert [r.tobytes() for r in one_pin] == _psec_blocks(0, pins[:1] * n, pans)
    fmt3 = pin_block(_as(kind, pins), _as(kind, pans[:1]), 3)
    want = [psec_pb.decode_pinblock_iso_3(b.tobytes(), pans[0]) for b in fmt3]
    back, valid = pin_from_block(fmt3, _as(kind, pans[:1]), 3)
    assert valid.all() and back.tolist() == want == pins


@pytest.mark.parametrize("kind", ["list", "U", "S"])
def test_the_pan_fields_are_made_in_the_pass_over_the_pins_and_blocks(kind: str,
                                                                        monkeypatch) -> None:
    from numbades.payments import _pin_kernels

    def refused(*args: object) -> None:
        raise AssertionError("a separate pass ran")

    for name in ("pan_fields_fast", "pan_fields", "encode_fast", "encode_blocks",
                 "decode_blocks"):
        monkeypatch.setattr(_pin_kernels, name, refused)
    rng = np.random.default_rng(12)
    pins, pans = _digits(rng, 300, 4, 12), _digits(rng, 300, 13, 19)
    blocks = pin_block(_as(kind, pins), _as(kind, pans), 0)
    assert [r.tobytes() for r in blocks] == _psec_blocks(0, pins, pans)
    back, valid = pin_from_block(blocks, _as(kind, pans), 0)
    assert valid.all() and back.tolist() == pins


@pytest.mark.parametrize("kind", ["list", "U"])
def test_a_bad_pan_is_named_before_a_bad_pin_and_one_bad_pan_for_all_is_row_0(
        kind: str) -> None:
    rng = np.random.default_rng(13)
    n = 300
    pins, pans = _digits(rng, n, 4, 12), _digits(rng, n, 13, 19)
    pins[3], pans[258] = "12a4", "1234567"
    with pytest.raises(ValueError, match=r"pan must be 8 to 19 digits: row 258$"):
        pin_block(_as(kind, pins), _as(kind, pans), 0)
    with pytest.raises(ValueError, match=r"pan must hold only the digits 0-9: row 0$"):
        pin_from_block(np.zeros((n, 8), np.uint8), _as(kind, ["55443322110099x6"]), 3)
