"""Every engine against the NIST CAVP TDES files (ECB, CBC, CFB-8, CFB-64, OFB).

The known-answer files (varkey, vartext, invperm, permop, subtab) use one key
for all three DES stages, i.e. single DES: they run through ``numbades.DES``.
The multi-block message files are keying option 3 (MMT1: one key, single DES
again), option 2 (MMT2: K1, K2, K1 -> a 16-byte key, and the same as 24 bytes)
and option 1 (MMT3: three keys).  Every record is checked both ways
(encrypt PLAINTEXT -> CIPHERTEXT and decrypt CIPHERTEXT -> PLAINTEXT).

Every engine of ``numbades.variants()`` (all 12 table variants and bitslice)
runs every KAT and MMT file: the files are small (one block per KAT record, at
most 10 blocks per MMT record), so the cost is compile time, not data.  The
bitslice engine has no CFB-8 path and must refuse it with ValueError.  Monte
Carlo files are not used.
"""

import pytest

import numbades

from .catalogue import ENGINES as VARIANTS
from .cavp import KAT_KINDS, MODE_DIRS, tdes_records

MODES = list(MODE_DIRS)  # ecb cbc cfb cfb8 ofb
MMT_FILES = ("MMT1", "MMT2", "MMT3")


def _bytes(r, name):
    return bytes.fromhex(r[name])


def _ciphers(r, variant):
    """The numbades cipher objects a record's keys describe."""
    if "KEYs" in r:
        return [numbades.DES(_bytes(r, "KEYs"), variant)]
    k1, k2, k3 = _bytes(r, "KEY1"), _bytes(r, "KEY2"), _bytes(r, "KEY3")
    if k1 == k2 == k3:
        return [numbades.DES(k1, variant)]
    if k1 == k3:
        return [numbades.TripleDES(k1 + k2, variant), numbades.TripleDES(k1 + k2 + k3, variant)]
    return [numbades.TripleDES(k1 + k2 + k3, variant)]


def _check(r, mode, variant):
    kw = {} if mode == "ecb" else {"iv": _bytes(r, "IV")}
    pt, ct = _bytes(r, "PLAINTEXT"), _bytes(r, "CIPHERTEXT")
    for c in _ciphers(r, variant):
        assert c.encrypt(pt, mode, **kw) == ct, (r["file"], r["section"], r["COUNT"], c)
        assert c.decrypt(ct, mode, **kw) == pt, (r["file"], r["section"], r["COUNT"], c)


KATS = {m: tdes_records(m, KAT_KINDS) for m in MODES}
MMTS = {m: tdes_records(m, MMT_FILES) for m in MODES}


def test_vectors_found():
    for m in MODES:
        assert len(KATS[m]) == 470, m
        assert len(MMTS[m]) == 60, m
        sections = {r["section"] for r in KATS[m] + MMTS[m]}
        assert sections == {"ENCRYPT", "DECRYPT"}
    keyings = {("KEY1" in r and r["KEY1"] == r["KEY3"], "KEY1" in r and r["KEY1"] == r["KEY2"])
               for r in MMTS["cbc"]}
    assert keyings == {(True, True), (True, False), (False, False)}  # options 3, 2, 1


def _params():
    for mode in MODES:
        for v in VARIANTS:
            if mode == "cfb8" and v == "bitslice":
                continue  # no bitslice CFB-8: test_bitslice_refuses_cfb8
            yield pytest.param(mode, v, id=f"{mode}-{v}")


@pytest.mark.parametrize(("mode", "variant"), list(_params()))
def test_kat(mode, variant):
    for r in KATS[mode]:
        _check(r, mode, variant)


@pytest.mark.parametrize(("mode", "variant"), list(_params()))
def test_mmt(mode, variant):
    for r in MMTS[mode]:
        _check(r, mode, variant)


@pytest.mark.parametrize("direction", ["encrypt", "decrypt"])
def test_bitslice_refuses_cfb8(direction):
    r = MMTS["cfb8"][-1]
    iv = _bytes(r, "IV")
    data = _bytes(r, "PLAINTEXT")
    des = numbades.DES(_bytes(r, "KEY1"), "bitslice")
    with pytest.raises(ValueError, match=r"(?i)cfb-?8|bitslice"):
        getattr(des, direction)(data, "cfb8", iv=iv)
    r3 = next(x for x in MMTS["cfb8"] if x["file"] == "TCFB8MMT3.rsp")
    k = b"".join(_bytes(r3, f"KEY{i}") for i in (1, 2, 3))
    tdes = numbades.TripleDES(k, "bitslice")
    with pytest.raises(ValueError, match=r"(?i)cfb-?8|bitslice"):
        getattr(tdes, direction)(data, "cfb8", iv=iv)


def test_single_key_mmt_is_refused_by_triple_des():
    """The option-3 (one key) records are single DES, which TripleDES refuses."""
    for r in MMTS["ecb"]:
        k1, k2, k3 = _bytes(r, "KEY1"), _bytes(r, "KEY2"), _bytes(r, "KEY3")
        if k1 == k2 == k3:
            with pytest.raises(ValueError):
                numbades.TripleDES(k1 + k2 + k3)
            with pytest.raises(ValueError):
                numbades.TripleDES(k1 + k2)
