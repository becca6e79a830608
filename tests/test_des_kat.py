"""Every engine against NIST's DES known-answer tests (CAVP TECB, keying option 3)."""

import pytest

import numbades

from .catalogue import ENGINES
from .cavp import read_rsp, rsp_path

KAT_FILES = ["TECBvartext.rsp", "TECBinvperm.rsp", "TECBvarkey.rsp", "TECBpermop.rsp",
             "TECBsubtab.rsp"]


def _single_des_records():
    out = []
    for name in KAT_FILES:
        for r in read_rsp(rsp_path("3DES", "ECB", name)):
            key = r.get("KEYs") or r["KEY1"]
            if "KEY2" in r and not (r["KEY1"] == r["KEY2"] == r["KEY3"]):
                continue
            out.append((name, bytes.fromhex(key), r))
    return out


RECORDS = _single_des_records()


def test_vectors_found():
    assert len(RECORDS) > 300


@pytest.mark.parametrize("variant", ENGINES)
def test_kat(variant):
    for name, key, r in RECORDS:
        c = numbades.DES(key, variant)
        pt, ct = bytes.fromhex(r["PLAINTEXT"]), bytes.fromhex(r["CIPHERTEXT"])
        if r["section"] == "ENCRYPT":
            assert c.encrypt(pt) == ct, (name, r)
        else:
            assert c.decrypt(ct) == pt, (name, r)
