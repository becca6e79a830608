"""The public cipher objects: validate once, then hand whole buffers to the modes layer."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _buffers, _engines, _keys, _modes
from ._keyschedule import round_keys48
from ._many import BatchMixin
from ._stream import StreamingMixin

Buffer = Any  # bytes, bytearray, memoryview, or a uint8 / uint64 NumPy array


def _key_bytes(key: Any, sizes: tuple[int, ...], what: str) -> bytes:
    key = _keys.key_bytes(key)
    if len(key) not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise ValueError(f"a {what} key is {want} bytes, got {len(key)}")
    return key


class _BlockCipher(StreamingMixin, BatchMixin):
    """What DES and TripleDES share: engine choice, one-shot calls, streams, batches."""

    _keys: _engines.Schedule
    _variant: str

    @property
    def variant(self) -> str:
        """The engine name asked for (``auto`` picks per call by size and mode)."""
        return self._variant

    @property
    def block_size(self) -> int:
        return 8

    def encrypt(self, data: Buffer, mode: str = "ecb", *, iv: Buffer | None = None,
                padding: str | None = None, out: Buffer | None = None) -> Buffer:
        """Encrypt ``data`` in ``mode`` (see ``docs/api.md``); returns the input's type.

        ``iv`` (8 bytes) is required for every mode but ECB.  ECB and CBC take
        multiples of 8 bytes unless ``padding="pkcs7"``; the other modes take
        any length.
        """
        return self._run(data, mode, iv, padding, out, decrypt=False)

    def decrypt(self, data: Buffer, mode: str = "ecb", *, iv: Buffer | None = None,
                padding: str | None = None, out: Buffer | None = None) -> Buffer:
        """Decrypt ``data`` in ``mode``; with ``padding="pkcs7"`` the padding is checked and removed."""
        return self._run(data, mode, iv, padding, out, decrypt=True)

    def _stream(self, mode: str, iv: Any, decrypt: bool) -> _modes.Stream:
        """Validated mode and IV -> a fresh chaining state."""
        mode = _modes.check_mode(mode)
        iv_value = _modes.check_iv(mode, iv)
        variant = self._variant
        if self._forced:
            _modes.check_engine(variant, mode)
        elif not _modes.engine_serves(variant, mode):  # NUMBADES_VARIANT's engine can't
            variant = _engines.DEFAULT_TABLE_VARIANT
        return _modes.Stream(self._keys, variant, mode, decrypt, iv_value)

    def _run(self, data: Buffer, mode: str, iv: Any, padding: Any, out: Any,
             decrypt: bool) -> Buffer:
        stream = self._stream(mode, iv, decrypt)
        padded = _modes.check_padding(mode, padding)
        src = _buffers.as_data(data)
        if padded:
            return self._run_padded(stream, src, out, decrypt)
        if mode not in _modes.BYTE_MODES:
            _buffers.require_whole_blocks(src, f"mode {mode!r} without padding")
        dst = _buffers.output(src, src.nbytes, out)
        if mode in _modes.BYTE_MODES and not src.is_words:
            stream.feed(src.raw, dst.bytes)
        else:
            stream.whole(src.raw, dst.bytes, src.swap)
        return _buffers.finish(src, dst, out)

    def _run_padded(self, stream: _modes.Stream, src: _buffers.Data, out: Any,
                    decrypt: bool) -> Buffer:
        if src.is_words:
            raise TypeError("padding works on bytes; a uint64 array is whole blocks (padding=None)")
        raw = src.raw
        if not decrypt:
            full = raw.size // 8 * 8
            last = _modes.pkcs7_block(raw[full:].copy())
            dst = _buffers.output(src, full + 8, out)
            stream.whole(raw[:full], dst.bytes[:full])
            stream.whole(last, dst.bytes[full:])
            return _buffers.finish(src, dst, out)
        _buffers.require_whole_blocks(src, "padded ciphertext")
        if raw.size == 0:
            raise ValueError("padded ciphertext is at least one block (8 bytes), got 0")
        target = None
        if out is not None:
            target = _buffers.writable_bytes(out)
            _buffers.check_out_kind(src, out)
            if not raw.size - 8 <= target.size <= raw.size - 1:
                raise ValueError(
                    f"out holds {target.size} bytes; the unpadded result of {raw.size} bytes "
                    f"is {raw.size - 8} to {raw.size - 1} bytes"
                )
        plain = np.empty(raw.size, dtype=np.uint8)  # scratch: out may overlap the input
        stream.whole(raw, plain)
        n = raw.size - 8 + _modes.pkcs7_length(plain[-8:])  # padding first, then sizes
        if target is not None:
            if target.size != n:  # says nothing of n: no plaintext-length oracle
                raise ValueError(
                    f"out holds {target.size} bytes, which is not the unpadded length; "
                    "pass out=None, or an out of exactly the unpadded length"
                )
            target[:] = plain[:n]
            return out
        if src.kind == "array":
            return plain[:n].copy()
        return _buffers.finish(src, _buffers.Destination(plain[:n], None), None)


class DES(_BlockCipher):
    """Single DES with a chosen engine (``variant``, default ``"auto"``).

    Parity bits are ignored unless ``check_parity=True``, as in every DES
    implementation.  ``encrypt``/``decrypt`` accept bytes, bytearray,
    memoryview, uint8 arrays (raw bytes) and uint64 arrays (one big-endian
    block per element) and return the input's type, shape and dtype.
    """

    key_size = 8

    def __init__(self, key: Buffer, variant: str = "auto", *, check_parity: bool = False):
        key = _key_bytes(key, (8,), "DES")
        if check_parity and not _keys.has_odd_parity(key):
            raise ValueError("key does not have odd parity (check_parity=True)")
        self._variant = _engines.resolve(variant)
        self._forced = variant != "auto"
        self._keys = _engines.Schedule(round_keys48(key))

    def __repr__(self) -> str:  # never shows key material
        return f"numbades.DES(variant={self._variant!r})"


class TripleDES(_BlockCipher):
    """Triple-DES, EDE: ``E_K3(D_K2(E_K1(P)))`` with the engine ``variant``.

    A 24-byte key is K1 || K2 || K3; a 16-byte key is K1 || K2 with K3 = K1.
    Keys that make it single DES (K1 == K2 or K2 == K3, ignoring parity bits)
    are refused.  One pass of 48 rounds: K1's schedule, K2's reversed, K3's.
    """

    def __init__(self, key: Buffer, variant: str = "auto", *, check_parity: bool = False):
        key = _key_bytes(key, (16, 24), "TripleDES")
        if check_parity and not _keys.has_odd_parity(key):
            raise ValueError("key does not have odd parity (check_parity=True)")
        k1, k2 = key[:8], key[8:16]
        k3 = key[16:] if len(key) == 24 else k1
        if _strip_parity(k1) == _strip_parity(k2) or _strip_parity(k2) == _strip_parity(k3):
            raise ValueError(
                "degenerate Triple-DES key: K1 == K2 or K2 == K3 (ignoring parity) is single DES"
            )
        self.key_size = len(key)
        self._variant = _engines.resolve(variant)
        self._forced = variant != "auto"
        ede = np.concatenate([round_keys48(k1), round_keys48(k2)[::-1], round_keys48(k3)])
        self._keys = _engines.Schedule(ede)

    def __repr__(self) -> str:  # never shows key material
        return f"numbades.TripleDES(key_size={self.key_size}, variant={self._variant!r})"


def _strip_parity(key: bytes) -> bytes:
    return bytes(b & 0xFE for b in key)
