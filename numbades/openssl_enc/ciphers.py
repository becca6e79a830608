"""The ``openssl enc`` cipher names of the DES family, one line each.

Each name maps to the numbades cipher object that serves it, the key and IV
lengths OpenSSL uses for it, and the numbades mode.  Aliases are OpenSSL's:
``des`` is ``des-cbc``, ``des3`` is ``des-ede3-cbc``, ``des-ede`` and
``des-ede3`` are ECB.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cipher import DES, DESX, TripleDES


@dataclass(frozen=True)
class CipherSpec:
    """How to run one ``openssl enc`` cipher name."""

    name: str
    factory: Callable[[bytes], Any]
    key_len: int
    mode: str
    iv_len: int

    @property
    def padded(self) -> bool:
        """ECB and CBC pad (PKCS#7) unless ``-nopad``; the stream modes never do."""
        return self.mode in ("ecb", "cbc")


def _tdes(key: bytes) -> Any:
    """Triple-DES under ``key``; a key that collapses to single DES runs as that DES.

    OpenSSL accepts K1 == K2 or K2 == K3 (``-K``); EDE then equals single DES
    under K3 (K1 == K2) or K1 (K2 == K3), which ``allow_degenerate=True`` runs.
    """
    return TripleDES(key, allow_degenerate=True)


def _spec(name: str, factory: Callable[[bytes], Any], key_len: int, mode: str) -> CipherSpec:
    return CipherSpec(name, factory, key_len, mode, 0 if mode == "ecb" else 8)


CIPHERS: dict[str, CipherSpec] = {s.name: s for s in (
    _spec("des-ecb", DES, 8, "ecb"),
    _spec("des-cbc", DES, 8, "cbc"),
    _spec("des-cfb", DES, 8, "cfb"),
    _spec("des-cfb8", DES, 8, "cfb8"),
    _spec("des-ofb", DES, 8, "ofb"),
    _spec("des-ede-ecb", _tdes, 16, "ecb"),
    _spec("des-ede-cbc", _tdes, 16, "cbc"),
    _spec("des-ede-cfb", _tdes, 16, "cfb"),
    _spec("des-ede-ofb", _tdes, 16, "ofb"),
    _spec("des-ede3-ecb", _tdes, 24, "ecb"),
    _spec("des-ede3-cbc", _tdes, 24, "cbc"),
    _spec("des-ede3-cfb", _tdes, 24, "cfb"),
    _spec("des-ede3-cfb8", _tdes, 24, "cfb8"),
    _spec("des-ede3-ofb", _tdes, 24, "ofb"),
    _spec("des-cfb1", DES, 8, "cfb1"),
    _spec("des-ede3-cfb1", _tdes, 24, "cfb1"),
    _spec("desx-cbc", DESX, 24, "cbc"),
)}

ALIASES: dict[str, str] = {
    "des": "des-cbc",
    "des3": "des-ede3-cbc",
    "des-ede": "des-ede-ecb",
    "des-ede3": "des-ede3-ecb",
    "desx": "desx-cbc",
}


def lookup(name: str) -> CipherSpec:
    """The spec for an ``openssl enc`` cipher name (case-insensitive, leading ``-`` allowed)."""
    if not isinstance(name, str):
        raise TypeError(f"cipher must be a str such as 'des-ede3-cbc', not {type(name).__name__}")
    key = name.lower().lstrip("-")
    key = ALIASES.get(key, key)
    try:
        return CIPHERS[key]
    except KeyError:
        known = ", ".join(sorted([*CIPHERS, *ALIASES]))
        raise ValueError(f"unknown cipher {name!r}; known: {known}") from None


def names() -> list[str]:
    """Every cipher name and alias, sorted."""
    return sorted([*CIPHERS, *ALIASES])
