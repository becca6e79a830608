"""Loader for NIST CAVP .rsp files shipped by the cryptography-vectors package.

A small reader keyed on field names (as pycryptodome's test loader is): each
record is a dict of the file's ``NAME = value`` lines, tagged with its
``[ENCRYPT]``/``[DECRYPT]`` section.
"""

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
