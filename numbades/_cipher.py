"""The public cipher object: validates once, then calls an engine's kernel."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _buffers, _engines, _keys
from ._keyschedule import round_keys48

_MODES = ("ecb",)


class DES:
    """Single DES with a chosen engine (``variant``, default ``"auto"``).

    Parity bits are ignored unless ``check_parity=True``, as in every DES
    implementation.  ``encrypt``/``decrypt`` accept bytes, bytearray,
    memoryview, uint8 arrays (raw bytes) and uint64 arrays (one big-endian
    block per element) and return the input's type, shape and dtype.
    """

    def __init__(self, key: bytes, variant: str = "auto", *, check_parity: bool = False):
        if not isinstance(key, (bytes, bytearray, memoryview)):
            raise TypeError(f"key must be bytes-like, not {type(key).__name__}")
        key = bytes(key)
        if len(key) != 8:
            raise ValueError(f"a DES key is 8 bytes, got {len(key)}")
        if check_parity and not _keys.has_odd_parity(key):
            raise ValueError("key does not have odd parity (check_parity=True)")
        self._variant = _engines.resolve(variant)
        self._enc = round_keys48(key)
        self._dec = np.ascontiguousarray(self._enc[::-1])

    @property
    def variant(self) -> str:
        return self._variant

    def __repr__(self) -> str:  # never shows key material
        return f"numbades.DES(variant={self._variant!r})"

    def encrypt(self, data: Any, mode: str = "ecb", out: Any = None) -> Any:
        """Encrypt ``data`` (a multiple of 8 bytes) in ``mode``."""
        return self._run(data, mode, out, self._enc)

    def decrypt(self, data: Any, mode: str = "ecb", out: Any = None) -> Any:
        """Decrypt ``data`` (a multiple of 8 bytes) in ``mode``."""
        return self._run(data, mode, out, self._dec)

    def _run(self, data: Any, mode: str, out: Any, round_keys: np.ndarray) -> Any:
        if mode not in _MODES:
            raise ValueError(f"unknown or unsupported mode {mode!r}; supported: {_MODES}")
        blocks = _buffers.as_blocks(data)
        dst, result = _buffers.output_words(blocks, out)
        engine = _engines.pick(self._variant, blocks.words.size)
        _engines.run_ecb(engine, blocks.words, dst, round_keys, blocks.swap)
        return _buffers.finish(blocks, dst, result, out)
