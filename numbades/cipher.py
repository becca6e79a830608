"""The public cipher objects: keys checked once, then every call handed to the modes layer.

``DES``, ``TripleDES`` and ``DESX`` own a key schedule (``engines.base.Schedule``)
and an engine request (``tuning.policy.Request``); ``encrypt``/``decrypt``,
the streaming contexts and the many-message calls are thin: arguments are
validated in ``modes`` and run there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types

from .des import keys as des_keys
from .des import keyschedule
from .engines.base import Schedule
from .engines.jit import loaded
from .engines.registry import DEFAULT_TABLE_VARIANT, ENGINES
from .modes import batch, oneshot
from .modes.contexts import CipherContext, open_context
from .tuning import policy

Buffer = Any  # bytes, bytearray, memoryview, or a uint8 / uint64 NumPy array


def _round_keys48(key: bytes) -> np.ndarray:
    """``des.keyschedule.round_keys48``, its kernel loaded without Numba's registry refresh
    (``engines.jit.loaded``); while that kernel is neither compiled nor cached and the default
    table variant compiles in another process (a cold process, ``TableEngine.compiling_aside``),
    ``round_keys48_numpy`` (the same tables, no compiler)."""
    if not _schedule_loaded:
        if loaded(keyschedule.round_keys48_into, _SCHEDULE_SIGNATURE):
            _schedule_loaded.append(True)
        elif (aside := ENGINES[DEFAULT_TABLE_VARIANT].compiling_aside) is not None and aside():
            return keyschedule.round_keys48_numpy(key)
    return keyschedule.round_keys48(key)


_schedule_loaded: list[bool] = []  # the key-schedule kernel was found compiled or cached
# round_keys48's call: the key word, PC1_BYTES, PC2_CHUNKS, SHIFTS (read-only tables), out
_SCHEDULE_SIGNATURE = (types.uint64, types.Array(types.uint64, 2, "C", readonly=True),
                       types.Array(types.uint64, 2, "C", readonly=True),
                       types.Array(types.int64, 1, "C", readonly=True),
                       types.Array(types.uint64, 1, "C"))


def _key_bytes(key: Any, sizes: tuple[int, ...], what: str) -> bytes:
    key = des_keys.key_bytes(key)
    if len(key) not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise ValueError(f"a {what} key is {want} bytes, got {len(key)}")
    return key


class _BlockCipher:
    """What DES and TripleDES share: engine choice, one-shot calls, streams, batches.

    A cipher pickles as its round keys and engine request (the key forms
    engines build are rebuilt where used; the repr plays no part), which is
    how ``numbades.dask`` sends it to workers.
    """

    _schedule: Schedule
    _request: policy.Request

    @property
    def variant(self) -> str:
        """The engine name asked for (``auto`` picks per call by size and mode)."""
        return self._request.label

    @property
    def block_size(self) -> int:
        return 8

    def encrypt(self, data: Buffer, mode: str = "ecb", *, iv: Buffer | None = None,
                padding: str | None = None, out: Buffer | None = None) -> Buffer:
        """Encrypt ``data`` in ``mode``; returns the input's type, shape and dtype.

        ``mode`` is ``"ecb"``, ``"cbc"``, ``"pcbc"``, ``"cfb"`` (64-bit
        feedback), ``"cfb8"``, ``"cfb1"``, ``"ofb"`` or ``"ctr"`` (the IV is the
        first counter block, a 64-bit big-endian integer that wraps at 2**64).
        ``iv`` (8 bytes) is required for every mode but ECB, which refuses one.
        ECB, CBC and PCBC take multiples of 8 bytes unless ``padding`` is
        ``"pkcs7"``, ``"iso7816"`` or ``"zeros"`` (byte input only); the other
        modes take any length.  ``data`` is bytes-like, a uint8 array (raw
        bytes) or a uint64 array (one big-endian block per element).  ``out``,
        if given, receives the result and is returned: a writable buffer of
        exactly the result's size (for uint64 input, a uint64 array of the
        same dtype); it may be ``data`` itself.  Wrong types raise
        ``TypeError``, wrong lengths or values ``ValueError``, before anything
        is written.  The full contract is in the numbades documentation
        (docs/api.md in the source tree).
        """
        return oneshot.run(self._schedule, self._request, data, mode, iv, padding, out, False)

    def decrypt(self, data: Buffer, mode: str = "ecb", *, iv: Buffer | None = None,
                padding: str | None = None, out: Buffer | None = None) -> Buffer:
        """Decrypt ``data`` in ``mode``; ``pkcs7`` and ``iso7816`` padding is checked and removed.

        ``zeros`` padding cannot be told from data: it is left in place.
        """
        return oneshot.run(self._schedule, self._request, data, mode, iv, padding, out, True)

    def encryptor(self, mode: str = "ecb", *, iv: Buffer | None = None,
                  padding: str | None = None) -> CipherContext:
        """A context that encrypts one message fed in chunks: ``update`` ... ``finalize``."""
        return open_context(self._schedule, self._request, mode, iv, padding, False)

    def decryptor(self, mode: str = "ecb", *, iv: Buffer | None = None,
                  padding: str | None = None) -> CipherContext:
        """A context that decrypts one message fed in chunks: ``update`` ... ``finalize``."""
        return open_context(self._schedule, self._request, mode, iv, padding, True)

    def encrypt_many(self, data: np.ndarray, mode: str = "ecb", *, ivs: np.ndarray | None = None,
                     out: np.ndarray | None = None) -> np.ndarray:
        """Encrypt each row of ``data`` as its own message with its own IV (``ivs[i]``).

        Row i of the result equals ``encrypt(data[i], mode, iv=ivs[i])``.
        """
        return batch.run(self._schedule, self._request, data, mode, ivs, out, decrypt=False)

    def decrypt_many(self, data: np.ndarray, mode: str = "ecb", *, ivs: np.ndarray | None = None,
                     out: np.ndarray | None = None) -> np.ndarray:
        """Decrypt each row of ``data`` as its own message with its own IV."""
        return batch.run(self._schedule, self._request, data, mode, ivs, out, decrypt=True)


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
        if check_parity and not des_keys.has_odd_parity(key):
            raise ValueError("key does not have odd parity (check_parity=True)")
        self._request = policy.resolve(variant)
        self._schedule = Schedule(_round_keys48(key))

    def __repr__(self) -> str:  # never shows key material
        return f"numbades.DES(variant={self.variant!r})"


class TripleDES(_BlockCipher):
    """Triple-DES, EDE: ``E_K3(D_K2(E_K1(P)))`` with the engine ``variant``.

    A 24-byte key is K1 || K2 || K3; a 16-byte key is K1 || K2 with K3 = K1.
    Keys that make it single DES (K1 == K2 or K2 == K3, ignoring parity bits)
    are refused unless ``allow_degenerate=True`` (then such a key *is* single
    DES under K3 or K1, as smart cards with default keys use it).  One pass of
    48 rounds: K1's schedule, K2's reversed, K3's.
    """

    def __init__(self, key: Buffer, variant: str = "auto", *, check_parity: bool = False,
                 allow_degenerate: bool = False):
        key = _key_bytes(key, (16, 24), "TripleDES")
        if check_parity and not des_keys.has_odd_parity(key):
            raise ValueError("key does not have odd parity (check_parity=True)")
        k1, k2 = key[:8], key[8:16]
        k3 = key[16:] if len(key) == 24 else k1
        degenerate = (_strip_parity(k1) == _strip_parity(k2)
                      or _strip_parity(k2) == _strip_parity(k3))
        if degenerate and not allow_degenerate:
            raise ValueError(
                "degenerate Triple-DES key: K1 == K2 or K2 == K3 (ignoring parity) is single DES"
                " (allow_degenerate=True accepts it)"
            )
        self.key_size = len(key)
        self._request = policy.resolve(variant)
        ede = np.concatenate([_round_keys48(k1), _round_keys48(k2)[::-1], _round_keys48(k3)])
        self._schedule = Schedule(ede)

    def __repr__(self) -> str:  # never shows key material
        return f"numbades.TripleDES(key_size={self.key_size}, variant={self.variant!r})"


def _strip_parity(key: bytes) -> bytes:
    return bytes(b & 0xFE for b in key)


class DESX(_BlockCipher):
    """RSA's DESX: ``E_K(P ^ K1) ^ K2`` (pre-whitening, DES, post-whitening).

    The 24-byte key is K || K1 || K2, the layout of OpenSSL's ``desx-cbc``
    (``DES_xcbc_encrypt``'s key, ``inw``, ``outw``).  Every mode and method
    of ``DES``; ``check_parity`` checks K's parity (K1 and K2 are not DES
    keys).  DESX runs on the table engine's default loop (``variant`` is
    ``"auto"`` or ``"table"``), its whitening inside the kernel.
    """

    key_size = 24

    def __init__(self, key: Buffer, variant: str = "auto", *, check_parity: bool = False):
        key = _key_bytes(key, (24,), "DESX")
        if check_parity and not des_keys.has_odd_parity(key[:8]):
            raise ValueError("key K (bytes 0-7) does not have odd parity (check_parity=True)")
        self._request = policy.resolve_desx(variant)
        whitening = (int.from_bytes(key[8:16], "big"), int.from_bytes(key[16:], "big"))
        self._schedule = Schedule(_round_keys48(key[:8]), whitening)

    def __repr__(self) -> str:  # never shows key material
        return f"numbades.DESX(variant={self.variant!r})"
