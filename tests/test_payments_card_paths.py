"""The card functions' two paths against psec: the fast one (``_card_swar``: strings read as
bytes, eight characters to a word, blocks of 256 rows) and the exact one (``_card_kernels``:
the rows it refuses, strings wider than 24 characters).

Every input kind (a list of str, NumPy ``U`` and ``S`` arrays, digit arrays, one value for
every row), widths on both sides of what the fast reader reads (24 characters), batch
sizes around its block of rows, and malformed rows in every field (letters, NULs inside,
characters outside ASCII whose low byte is a digit's, wrong lengths), which must be
refused naming exactly those rows, before any cipher runs.  The expected values are
psec's (``psec.cvv``, ``psec.pin``), computed here row by row.
"""

from __future__ import annotations

import numpy as np
import psec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numbades import payments
from numbades.payments import _card_kernels, _cipher

from .test_payments_cards import visa_cvv

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::UserWarning")

KEY = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")
KEY_ARRAY = np.frombuffer(KEY, np.uint8)
TABLE = "0123456789012345"
IBM = {"pan_verify_offset": 4, "pan_verify_length": 11, "pan_pad": "F"}


def _digits(rng: np.random.Generator, n: int, lo: int, hi: int) -> list[str]:
    return ["".join(map(str, rng.integers(0, 10, rng.integers(lo, hi + 1)))) for _ in range(n)]


def _as(kind: str, values: list[str], width: int | None = None):
    """The values as a list, a U or S array (``width`` characters if given) or a digit array."""
    if kind == "list":
        return values
    if kind == "digits":  # (N, L) integers, -1 after a shorter row
        wide = width or max(len(v) for v in values)
        return np.array([[int(c) for c in v] + [-1] * (wide - len(v)) for v in values], np.int8)
    return np.array(values, dtype=f"{kind}{width}" if width else kind)


def _pvv(pvki: str, pin: str, pan: str) -> str:
    return psec.pin.generate_visa_pvv(KEY, pvki, pin, pan)


def _offset(pin: str, pan: str, **ibm: object) -> str:
    start = ibm.get("pan_verify_offset", 0)
    length = ibm.get("pan_verify_length") or len(pan) - start
    return psec.pin.generate_ibm3624_offset(KEY, TABLE, pin, pan, start, length,
                                            ibm.get("pan_pad", "F"))


def _check_all(kind: str, pans: list[str], pins: list[str], expiries: list[str],
               widths: dict[str, int | None]) -> None:
    """Every card function on these rows (in ``kind``, of ``widths``) equals psec's, row by
    row; the verify forms accept psec's values and refuse a changed digit."""
    n = len(pans)
    pan, pin, expiry = (_as(kind, v, widths.get(name)) for name, v in
                        (("pan", pans), ("pin", pins), ("expiry", expiries)))
    cvvs = [visa_cvv(KEY, a, e, "101") for a, e in zip(pans, expiries, strict=True)]
    assert payments.cvv(KEY_ARRAY, pan, expiry, "101").tolist() == cvvs
    pvvs = [_pvv("1", p[:4], a) for p, a in zip(pins, pans, strict=True)]
    four = _as(kind, [p[:4] for p in pins], widths.get("pin"))
    assert payments.visa_pvv(KEY_ARRAY, "1", four, pan).tolist() == pvvs
    offsets = [_offset(p, a, **IBM) for p, a in zip(pins, pans, strict=True)]
    assert payments.ibm3624_offset(KEY_ARRAY, TABLE, pin, pan, **IBM).tolist() == offsets
    offset = _as(kind, offsets, widths.get("pin"))
    assert payments.ibm3624_pin(KEY_ARRAY, TABLE, offset, pan, **IBM).tolist() == pins
    wrong = [v[:-1] + str((int(v[-1]) + 1) % 10) for v in pvvs]
    truth = np.arange(n) % 3 != 0  # every third row given a wrong value
    given_pvv = _as(kind, [v if t else w for v, w, t in zip(pvvs, wrong, truth, strict=True)])
    assert payments.verify_visa_pvv(KEY_ARRAY, "1", four, pan, given_pvv).tolist() == truth.tolist()
    wrong = [v[:-1] + str((int(v[-1]) + 1) % 10) for v in cvvs]
    given_cvv = _as(kind, [v if t else w for v, w, t in zip(cvvs, wrong, truth, strict=True)])
    assert payments.verify_cvv(KEY_ARRAY, pan, expiry, "101", given_cvv).tolist() == truth.tolist()
    wrong = [v[:-1] + str((int(v[-1]) + 1) % 10) for v in offsets]
    given_off = _as(kind, [v if t else w for v, w, t in zip(offsets, wrong, truth, strict=True)],
                    widths.get("pin"))
    assert payments.verify_ibm3624_offset(KEY_ARRAY, TABLE, pin, pan, given_off,
                                          **IBM).tolist() == truth.tolist()


@pytest.mark.parametrize("kind", ["list", "U", "S", "digits"])
@pytest.mark.parametrize("widths", [{}, {"pan": 24, "pin": 24, "expiry": 24},
                                    {"pan": 25, "pin": 17, "expiry": 9}, {"pan": 40}])
def test_every_input_kind_and_width_equals_psec(kind: str, widths: dict) -> None:
    rng = np.random.default_rng(len(kind) * 100 + len(widths) + widths.get("pan", 0))
    n = 300  # past one block of rows
    _check_all(kind, _digits(rng, n, 15, 19), _digits(rng, n, 4, 16), _digits(rng, n, 4, 4),
               widths)


@pytest.mark.parametrize("n", [1, 2, 255, 256, 257, 513])
@pytest.mark.parametrize("kind", ["U", "S"])
def test_batch_sizes_around_the_block_of_rows(n: int, kind: str) -> None:
    rng = np.random.default_rng(n)
    _check_all(kind, _digits(rng, n, 15, 19), _digits(rng, n, 4, 12), _digits(rng, n, 4, 4), {})


@pytest.mark.parametrize("kind", ["list", "U", "S"])
def test_one_value_for_every_row(kind: str) -> None:
    rng = np.random.default_rng(11)
    n = 300
    pans, pins, expiries = _digits(rng, n, 12, 19), _digits(rng, n, 4, 4), _digits(rng, n, 4, 4)
    codes, pvkis = _digits(rng, n, 3, 3), _digits(rng, n, 1, 1)
    got = payments.cvv(KEY_ARRAY, _as(kind, pans[:1]), _as(kind, expiries), _as(kind, codes))
    assert got.tolist() == [visa_cvv(KEY, pans[0], e, c)
                            for e, c in zip(expiries, codes, strict=True)]
    got = payments.cvv(KEY_ARRAY, _as(kind, pans), _as(kind, expiries[:1]), "999")
    assert got.tolist() == [visa_cvv(KEY, a, expiries[0], "999") for a in pans]
    got = payments.visa_pvv(KEY_ARRAY, _as(kind, pvkis), _as(kind, pins[:1]), _as(kind, pans))
    assert got.tolist() == [_pvv(k, pins[0], a) for k, a in zip(pvkis, pans, strict=True)]
    got = payments.visa_pvv(KEY_ARRAY, "7", _as(kind, pins), _as(kind, pans[:1]))
    assert got.tolist() == [_pvv("7", p, pans[0]) for p in pins]
    long_pan = [a + "0" * (15 - len(a)) for a in pans[:1]]  # IBM's digits 4..14 lie within it
    offsets = payments.ibm3624_offset(KEY_ARRAY, TABLE, _as(kind, pins), _as(kind, long_pan), **IBM)
    assert offsets.tolist() == [_offset(p, long_pan[0], **IBM) for p in pins]
    ok = payments.verify_ibm3624_offset(KEY_ARRAY, TABLE, _as(kind, pins), _as(kind, long_pan),
                                        _as(kind, offsets.tolist()[:1]), **IBM)
    assert ok.tolist() == [o == offsets[0] for o in offsets.tolist()]


@pytest.mark.parametrize(("start", "length"), [(0, None), (0, 1), (3, 16), (7, None), (18, 1),
                                               (14, None), (2, 5)])
def test_ibm3624_digits_taken_from_anywhere_in_the_pan(start: int, length: int | None) -> None:
    rng = np.random.default_rng(start * 31 + (length or 0))
    n = 300
    pans, pins = _digits(rng, n, 19, 19), _digits(rng, n, 4, 12)
    ibm = {"pan_verify_offset": start, "pan_verify_length": length, "pan_pad": "3"}
    got = payments.ibm3624_offset(KEY_ARRAY, TABLE, pins, pans, **ibm)
    assert got.tolist() == [_offset(p, a, **ibm) for p, a in zip(pins, pans, strict=True)]
    keep = start + (length or 1) - 1  # one digit too few (none: the PAN check refuses)
    short = [a[:keep] for a in pans[:3]] + pans[3:]
    with pytest.raises(ValueError, match=r"pan must be 1 to 19 digits: rows 0, 1, 2$"
                       if keep == 0 else r"must lie within the PAN: rows 0, 1, 2$"):
        payments.ibm3624_offset(KEY_ARRAY, TABLE, pins, short, **ibm)


def test_an_ibm3624_offset_past_any_pan_refuses_every_row() -> None:
    with pytest.raises(ValueError, match=r"must lie within the PAN: rows 0, 1$"):
        payments.ibm3624_offset(KEY_ARRAY, TABLE, "1234", ["1" * 19, "2" * 19],
                                pan_verify_offset=25)


# Strings that are not digits of the field's length, with the words of their refusal (a NUL
# for the one digit of a PVKI leaves an empty string).
_BAD = [("x", "only the digits"), ("\x00", "(only the digits|be 1 digits)"), ("\u0130", "only the digits"),
        ("\u0663", "only the digits"), ("", "digits")]
# field -> (function's arguments from the spoiled field's rows, the name in the message)
_FIELDS = {
    "pan": lambda f, ok: (payments.cvv, (KEY_ARRAY, f, ok["expiry"], "101")),
    "expiry": lambda f, ok: (payments.cvv, (KEY_ARRAY, ok["pan"], f, "101")),
    "service_code": lambda f, ok: (payments.cvv, (KEY_ARRAY, ok["pan"], ok["expiry"], f)),
    "cvv": lambda f, ok: (payments.verify_cvv, (KEY_ARRAY, ok["pan"], ok["expiry"], "101", f)),
    "pvki": lambda f, ok: (payments.visa_pvv, (KEY_ARRAY, f, ok["pin"], ok["pan"])),
    "pin": lambda f, ok: (payments.visa_pvv, (KEY_ARRAY, "1", f, ok["pan"])),
    "pvv": lambda f, ok: (payments.verify_visa_pvv, (KEY_ARRAY, "1", ok["pin"], ok["pan"], f)),
    "offset": lambda f, ok: (payments.verify_ibm3624_offset,
                             (KEY_ARRAY, TABLE, ok["pin"], ok["pan"], f)),
}


@pytest.mark.parametrize("field", sorted(_FIELDS))
@pytest.mark.parametrize(("bad", "message"), _BAD)
def test_a_bad_row_in_any_field_is_refused_naming_its_row_before_any_cipher(
        field: str, bad: str, message: str, monkeypatch) -> None:
    rng = np.random.default_rng(12)
    n = 300
    ok = {"pan": _digits(rng, n, 16, 16), "expiry": _digits(rng, n, 4, 4),
          "service_code": _digits(rng, n, 3, 3), "cvv": _digits(rng, n, 3, 3),
          "pvki": _digits(rng, n, 1, 1), "pin": _digits(rng, n, 4, 4),
          "pvv": _digits(rng, n, 4, 4), "offset": _digits(rng, n, 4, 4)}

    def no_cipher(*args: object, **kwargs: object) -> None:
        raise AssertionError("a cipher ran")

    monkeypatch.setattr(_cipher, "ecb", no_cipher)
    for row in (0, 255, 256, n - 1):
        spoiled = list(ok[field])
        spoiled[row] = bad + spoiled[row][1:] if bad else ""  # the first character
        for kind in ("list", "U"):
            call, args = _FIELDS[field](_as(kind, spoiled), ok)
            with pytest.raises(ValueError, match=rf"^{field} must .*{message}.*: row {row}$"):
                call(*args)


def test_wrong_lengths_are_named_with_the_fields_range() -> None:
    pans = ["4000123412341234"] * 300
    for row in (0, 256):
        pins = ["1234"] * 300
        pins[row] = "12345"
        with pytest.raises(ValueError, match=rf"^pin must be 4 digits: row {row}$"):
            payments.visa_pvv(KEY_ARRAY, "1", pins, pans)
        long_pans = list(pans)
        long_pans[row] = "1" * 20
        with pytest.raises(ValueError, match=rf"^pan must be 1 to 19 digits: row {row}$"):
            payments.cvv(KEY_ARRAY, long_pans, "2512", "101")
        with pytest.raises(ValueError, match=rf"^pan must be 12 to 19 digits: row {row}$"):
            payments.visa_pvv(KEY_ARRAY, "1", "1234", [a[:11] if i == row else a
                                                       for i, a in enumerate(pans)])


@pytest.mark.parametrize("kind", ["list", "U", "S"])
def test_clean_rows_of_the_usual_widths_never_take_the_exact_path(kind: str, monkeypatch) -> None:
    def refused(*args: object) -> None:
        raise AssertionError("the exact kernel ran")

    for name in ("cvv_data", "pvv_data", "validation_data", "digit_words"):
        monkeypatch.setattr(_card_kernels, name, refused)
    rng = np.random.default_rng(13)
    pans, pins, expiries = _digits(rng, 40, 16, 19), _digits(rng, 40, 4, 4), _digits(rng, 40, 4, 4)
    _check_all(kind, pans, pins, expiries, {"pan": 24, "pin": 16})


@settings(max_examples=15, deadline=None)
@given(rows=st.lists(st.tuples(st.text("0123456789", min_size=15, max_size=19),
                               st.text("0123456789", min_size=4, max_size=12),
                               st.text("0123456789", min_size=4, max_size=4)),
                     min_size=1, max_size=30),
       kind=st.sampled_from(["list", "U", "S"]))
def test_hypothesis_batches(rows: list[tuple[str, str, str]], kind: str) -> None:
    _check_all(kind, [a for a, _, _ in rows], [p for _, p, _ in rows], [e for _, _, e in rows], {})
