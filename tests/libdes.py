"""OpenSSL's libdes API (``DES_*`` in ``libcrypto.so.3``) through ctypes: the outside reference.

Each helper calls the C function exactly as libdes documents it and returns
bytes; tests skip (visibly) where the library is missing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

import pytest

_SCHEDULE = ctypes.c_ubyte * 128  # DES_key_schedule: 16 x 2 DES_LONG (4 bytes)
_BLOCK = ctypes.c_ubyte * 8


@functools.cache
def lib() -> ctypes.CDLL:
    for name in ("libcrypto.so.3", ctypes.util.find_library("crypto")):
        if name:
            try:
                return ctypes.CDLL(name)
            except OSError:
                continue
    pytest.skip("no libcrypto with the DES_* API")


def _schedule(key: bytes):
    ks = _SCHEDULE()
    lib().DES_set_key_unchecked(_BLOCK.from_buffer_copy(key), ks)
    return ks


def string_to_key(password: bytes) -> bytes:
    out = _BLOCK()
    lib().DES_string_to_key(ctypes.c_char_p(password), out)
    return bytes(out)


def string_to_2keys(password: bytes) -> bytes:
    k1, k2 = _BLOCK(), _BLOCK()
    lib().DES_string_to_2keys(ctypes.c_char_p(password), k1, k2)
    return bytes(k1) + bytes(k2)


def _run(data: bytes):
    return ctypes.create_string_buffer(data, len(data)), ctypes.create_string_buffer(len(data))


def pcbc(key: bytes, iv: bytes, data: bytes, *, decrypt: bool) -> bytes:
    """``DES_pcbc_encrypt`` (single DES) over whole blocks."""
    src, dst = _run(data)
    lib().DES_pcbc_encrypt(src, dst, ctypes.c_long(len(data)), _schedule(key),
                           _BLOCK.from_buffer_copy(iv), ctypes.c_int(0 if decrypt else 1))
    return dst.raw


def cfb1(key: bytes, iv: bytes, data: bytes, *, decrypt: bool) -> bytes:
    """CFB-1 over ``data``'s bits, most significant first, one ``DES_cfb_encrypt(numbits=1)``
    (single DES) or ``DES_ede3_cfb_encrypt(numbits=1)`` (16/24-byte key) call per bit.

    With numbits=1 each input byte carries one bit in its top bit, as
    OpenSSL's own EVP ``des-cfb1`` drives it.
    """
    bits = bytes(0x80 if (b >> (7 - j)) & 1 else 0 for b in data for j in range(8))
    src, dst = _run(bits)
    ivec = _BLOCK.from_buffer_copy(iv)
    enc = ctypes.c_int(0 if decrypt else 1)
    if len(key) == 8:
        lib().DES_cfb_encrypt(src, dst, ctypes.c_int(1), ctypes.c_long(len(bits)), _schedule(key),
                              ivec, enc)
    else:
        k3 = key[16:24] if len(key) == 24 else key[:8]
        lib().DES_ede3_cfb_encrypt(src, dst, ctypes.c_int(1), ctypes.c_long(len(bits)),
                                   _schedule(key[:8]), _schedule(key[8:16]), _schedule(k3),
                                   ivec, enc)
    out = bytearray(len(data))
    for n, b in enumerate(dst.raw):
        out[n // 8] |= (b & 0x80) >> (n % 8)
    return bytes(out)


def xcbc(key24: bytes, iv: bytes, data: bytes, *, decrypt: bool) -> bytes:
    """``DES_xcbc_encrypt`` (DESX in CBC) with OpenSSL's ``desx-cbc`` key layout: K, pre, post."""
    src, dst = _run(data)
    lib().DES_xcbc_encrypt(src, dst, ctypes.c_long(len(data)), _schedule(key24[:8]),
                           _BLOCK.from_buffer_copy(iv), _BLOCK.from_buffer_copy(key24[8:16]),
                           _BLOCK.from_buffer_copy(key24[16:24]),
                           ctypes.c_int(0 if decrypt else 1))
    return dst.raw
