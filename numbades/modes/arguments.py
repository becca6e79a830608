"""Checks of the mode arguments every entry point shares: mode, IV, padding.

Each returns the validated value or raises ``TypeError`` (wrong type) or
``ValueError`` (wrong value) naming the problem, before any work is done;
``check_call`` runs the three for a one-shot call or a streaming context.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..engines.chains import MODES
from .padding import REMOVABLE, SCHEMES

#: Modes that take any length (a keystream XORed into the data).
BYTE_MODES = ("cfb", "cfb8", "ofb", "ctr", "cfb1")
#: Modes that take ``padding=`` (``PADDINGS``).
PADDED_MODES = ("ecb", "cbc", "pcbc")
PADDINGS = SCHEMES
#: Modes of ``encrypt_many`` / ``decrypt_many`` (CFB-8 and CFB-1 are a cipher call per
#: byte / bit, PCBC has no batch path).
MANY_MODES = ("ecb", "cbc", "cfb", "ofb", "ctr")

__all__ = ["BYTE_MODES", "MANY_MODES", "MODES", "PADDED_MODES", "PADDINGS", "Call", "check_call",
           "check_iv", "check_mode", "check_padding", "takes_whole_blocks"]


def takes_whole_blocks(mode: str) -> bool:
    """The mode takes whole 8-byte blocks only (without padding)."""
    return mode not in BYTE_MODES


def check_mode(mode: Any, allowed: tuple[str, ...] = MODES, what: str = "") -> str:
    if not isinstance(mode, str):
        raise TypeError(f"mode must be a str, not {type(mode).__name__}")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; choose one of {MODES}")
    if mode not in allowed:
        raise ValueError(f"mode {mode!r} is not available {what}; choose one of {allowed}")
    return mode


def check_iv(mode: str, iv: Any) -> int | None:
    """The IV as a block value; required for every mode but ECB, refused for ECB."""
    if mode == "ecb":
        if iv is not None:
            raise ValueError("ECB takes no iv")
        return None
    if iv is None:
        raise ValueError(f"mode {mode!r} needs an iv (8 bytes)")
    if not isinstance(iv, (bytes, bytearray, memoryview)):
        raise TypeError(f"iv must be bytes-like, not {type(iv).__name__}")
    iv = bytes(iv)
    if len(iv) != 8:
        raise ValueError(f"iv must be 8 bytes, got {len(iv)}")
    return int.from_bytes(iv, "big")


def check_padding(mode: str, padding: Any, decrypt: bool = False) -> str | None:
    """The padding scheme to apply, or None; only ECB and CBC take padding.

    Decryption with ``zeros`` (which cannot be removed) is decryption without padding.
    """
    if padding is None:
        return None
    if not isinstance(padding, str):
        raise TypeError(f"padding must be None or a str, not {type(padding).__name__}")
    if padding not in PADDINGS:
        raise ValueError(f"unknown padding {padding!r}; choose None or one of {PADDINGS}")
    if mode not in PADDED_MODES:
        raise ValueError(f"mode {mode!r} takes any length and no padding")
    return padding if not decrypt or padding in REMOVABLE else None


class Call(NamedTuple):
    """The checked arguments of a one-shot call or a streaming context."""

    mode: str
    iv: int | None  # the IV as a block value; None for ECB
    padding: str | None  # the padding scheme (``modes.padding``) to apply, or None


def check_call(mode: Any, iv: Any, padding: Any, decrypt: bool) -> Call:
    """Mode, then IV, then padding, each checked (``encrypt``/``decrypt``/``encryptor``)."""
    mode = check_mode(mode)
    iv_value = check_iv(mode, iv)
    return Call(mode, iv_value, check_padding(mode, padding, decrypt))
