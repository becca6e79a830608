"""Loader for NIST CAVP .rsp files shipped by the cryptography-vectors package."""

from __future__ import annotations

from pathlib import Path

import cryptography_vectors


def rsp_path(*parts: str) -> Path:
    return Path(cryptography_vectors.__file__).parent.joinpath("ciphers", *parts)


def read_rsp(path: Path) -> list[dict[str, str]]:
    """Records of an .rsp file, each tagged with its [ENCRYPT]/[DECRYPT] section."""
    records, current, section = [], {}, None
    for line in path.read_text().splitlines():
        line = line.strip()
        if line in ("[ENCRYPT]", "[DECRYPT]"):
            section = line[1:-1]
            continue
        if not line or line.startswith("#"):
            if current:
                records.append(current)
                current = {}
            continue
        if "=" in line:
            k, v = (s.strip() for s in line.split("=", 1))
            current[k] = v
            current["section"] = section
    if current:
        records.append(current)
    return [r for r in records if "KEYs" in r or "KEY1" in r]


# --- outside references shared by the mode tests -----------------------------

MODE_DIRS = {  # numbades mode -> (CAVP directory, file prefix)
    "ecb": ("ECB", "TECB"),
    "cbc": ("CBC", "TCBC"),
    "cfb": ("CFB", "TCFB64"),
    "cfb8": ("CFB", "TCFB8"),
    "ofb": ("OFB", "TOFB"),
}
KAT_KINDS = ("varkey", "vartext", "invperm", "permop", "subtab")


def tdes_records(mode: str, names: tuple[str, ...]) -> list[dict[str, str]]:
    """Records of ``<prefix><name>.rsp`` for each name, each tagged with its file."""
    directory, prefix = MODE_DIRS[mode]
    out = []
    for name in names:
        for r in read_rsp(rsp_path("3DES", directory, f"{prefix}{name}.rsp")):
            r["file"] = f"{prefix}{name}.rsp"
            out.append(r)
    return out


def pycryptodome(key: bytes, mode: str, iv: bytes | None = None):
    """A fresh pycryptodome cipher doing what numbades does for (key, mode, iv).

    cfb -> CFB with 64-bit segments, cfb8 -> CFB with 8-bit segments, ctr -> a
    full-width 64-bit big-endian counter starting at ``iv``.
    """
    from Crypto.Cipher import DES, DES3

    mod = DES if len(key) == 8 else DES3
    if mode == "ecb":
        return mod.new(key, mod.MODE_ECB)
    if mode == "cbc":
        return mod.new(key, mod.MODE_CBC, iv=iv)
    if mode == "cfb":
        return mod.new(key, mod.MODE_CFB, iv=iv, segment_size=64)
    if mode == "cfb8":
        return mod.new(key, mod.MODE_CFB, iv=iv, segment_size=8)
    if mode == "ofb":
        return mod.new(key, mod.MODE_OFB, iv=iv)
    if mode == "ctr":
        return mod.new(key, mod.MODE_CTR, nonce=b"", initial_value=int.from_bytes(iv, "big"))
    raise ValueError(mode)


def ref_encrypt(key: bytes, mode: str, iv: bytes | None, data: bytes) -> bytes:
    return pycryptodome(key, mode, iv).encrypt(data)


def ref_decrypt(key: bytes, mode: str, iv: bytes | None, data: bytes) -> bytes:
    return pycryptodome(key, mode, iv).decrypt(data)


def random_key(rng, size: int) -> bytes:
    """A random key of ``size`` bytes that pycryptodome's DES3 accepts (not degenerate)."""
    from Crypto.Cipher import DES3

    while True:
        key = rng.bytes(size)
        if size == 8:
            return key
        try:
            DES3.adjust_key_parity(key)
        except ValueError:
            continue
        return key
