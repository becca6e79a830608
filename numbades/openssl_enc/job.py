"""One ``openssl enc`` run: the parameters, the salt header, and the chunked stream.

Input is read in chunks of ``chunk_size`` bytes into two reused buffers and
pushed through the cipher object's streaming context (``update_into``), whose
engine choice sends CBC decryption and the counter-like modes to the
bitslice engine per chunk.  With ``overlap`` one I/O thread reads the next
chunk and writes the previous result while the kernel (which releases the
GIL) computes the current one.  Memory stays at about four chunks whatever
the file size.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np

from . import kdf
from .b64 import Base64Reader, Base64Writer
from .ciphers import CipherSpec

MAGIC = b"Salted__"
DEFAULT_CHUNK = 4 << 20


class EncError(ValueError):
    """``openssl enc`` would fail here; the message is OpenSSL's (e.g. ``bad magic number``)."""


class BadDecrypt(EncError):
    """Wrong password or key, corrupted or truncated ciphertext: OpenSSL's ``bad decrypt``."""

    def __init__(self, message: str = "bad decrypt"):
        super().__init__(message)


@dataclass(frozen=True)
class Params:
    """Everything ``openssl enc`` takes besides the direction and the files."""

    cipher: CipherSpec
    password: bytes | None = None
    key: bytes | None = None  # -K: raw key, overrides the derived one
    iv: bytes | None = None  # -iv: raw IV, overrides the derived one
    salt: bytes | None = None  # -S: this salt, and no header written or read
    use_salt: bool = True  # False: -nosalt
    md: str = kdf.DEFAULT_MD
    pbkdf2: bool = False
    iterations: int = kdf.DEFAULT_ITERATIONS
    base64: bool = False
    single_line: bool = False  # -A
    padding: bool = True  # False: -nopad

    @property
    def header(self) -> bool:
        """The ``Salted__`` header is written/read: password, salt, and no ``-S``."""
        return self.password is not None and self.use_salt and self.salt is None


@dataclass
class Keys:
    """What ``-p`` prints: the salt used (None without one), key and IV."""

    salt: bytes | None
    key: bytes
    iv: bytes | None


@dataclass
class Stats:
    """Bytes read and written (after base64), as ``-v`` reports them."""

    bytes_read: int = 0
    bytes_written: int = 0


def _read_full(src: Any, n: int) -> bytes:
    """Up to n bytes, fewer only at the end of the input (pipes return short reads)."""
    parts = []
    while n:
        part = src.read(n)
        if not part:
            break
        parts.append(part)
        n -= len(part)
    return b"".join(parts)


def _readinto_full(src: Any, buf: np.ndarray) -> int:
    view = memoryview(buf)
    got = 0
    while got < len(view):
        if hasattr(src, "readinto"):
            n = src.readinto(view[got:])
        else:
            part = src.read(len(view) - got)
            n = len(part) if part else 0
            view[got:got + n] = part
        if not n:
            break
        got += n
    return got


class _Counting:
    """Counts the bytes passing through a binary file object."""

    def __init__(self, raw: Any):
        self.raw = raw
        self.count = 0

    def read(self, n: int) -> bytes:
        data = self.raw.read(n)
        self.count += len(data)
        return data

    def readinto(self, buf: Any) -> int:
        if not hasattr(self.raw, "readinto"):
            data = self.raw.read(len(buf))
            buf[:len(data)] = data
            n = len(data)
        else:
            n = self.raw.readinto(buf) or 0
        self.count += n
        return n

    def write(self, data: Any) -> int:
        n = self.raw.write(data)
        n = len(data) if n is None else n
        self.count += n
        return n


def derive(params: Params, salt: bytes | None) -> Keys:
    """Key and IV from the password (with ``salt``), then ``-K``/``-iv`` on top, as OpenSSL."""
    spec = params.cipher
    key: bytes | None = None
    iv: bytes | None = None
    if params.password is not None:
        if params.pbkdf2:
            key, iv = kdf.pbkdf2(params.password, salt, spec.key_len, spec.iv_len, params.md,
                                 params.iterations)
        else:
            key, iv = kdf.evp_bytes_to_key(params.password, salt, spec.key_len, spec.iv_len,
                                           params.md)
    if params.key is not None:
        key = params.key
    if params.iv is not None and spec.iv_len:
        iv = params.iv
    if key is None:
        raise EncError("no key: give a password or a key")
    if spec.iv_len and iv is None:
        raise EncError("iv undefined")
    return Keys(salt, key, iv if spec.iv_len else None)


def start_keys(params: Params, src: Any, decrypt: bool) -> Keys:
    """Read (decrypt) or choose (encrypt) the salt, then derive the key and IV."""
    salt: bytes | None = None
    if params.password is not None and params.use_salt:
        salt = params.salt
        if salt is None and decrypt:
            head = _read_full(src, 16)
            if len(head) < 16:
                raise EncError("error reading input file")
            if head[:8] != MAGIC:
                raise EncError("bad magic number")
            salt = head[8:]
        elif salt is None:
            salt = secrets.token_bytes(kdf.SALT_LEN)
    return derive(params, salt)


def run(params: Params, src: BinaryIO, dst: BinaryIO, decrypt: bool, *,
        chunk_size: int = DEFAULT_CHUNK, overlap: bool = True,
        on_keys: Callable[[Keys], bool] | None = None,
        progress: Callable[[int], None] | None = None) -> Stats:
    """Encrypt or decrypt ``src`` into ``dst``; raises :class:`EncError` as openssl would fail.

    ``on_keys(keys)`` is called once the key is known; returning False stops
    there (``-P``).  ``progress(n)`` is called after each chunk with the input
    bytes read so far (base64 text included).
    """
    if not isinstance(chunk_size, int) or chunk_size < 8:
        raise ValueError(f"chunk_size must be an int >= 8, not {chunk_size!r}")
    chunk_size = chunk_size // 8 * 8
    raw_in, raw_out = _Counting(src), _Counting(dst)
    reader: Any = Base64Reader(raw_in) if (params.base64 and decrypt) else raw_in
    writer: Any = Base64Writer(raw_out, params.single_line) if (params.base64 and not decrypt) \
        else raw_out
    keys = start_keys(params, reader, decrypt)
    if on_keys is not None and on_keys(keys) is False:
        return Stats(raw_in.count, raw_out.count)
    spec = params.cipher
    cipher = spec.factory(keys.key)
    padding = "pkcs7" if (spec.padded and params.padding) else None
    context = (cipher.decryptor if decrypt else cipher.encryptor)(spec.mode, iv=keys.iv,
                                                                  padding=padding)
    if not decrypt and params.header:
        writer.write(MAGIC + keys.salt)
    done = (lambda _n: progress(raw_in.count)) if progress else None
    _pump(reader, writer, context, chunk_size, overlap, done)
    try:
        tail = context.finalize()
    except ValueError:
        raise BadDecrypt() if decrypt else EncError("bad encrypt") from None
    writer.write(tail)
    if isinstance(writer, Base64Writer):
        writer.close()
    return Stats(raw_in.count, raw_out.count)


def _pump(reader: Any, writer: Any, context: Any, chunk: int, overlap: bool,
          progress: Callable[[int], None] | None) -> None:
    """Every chunk of ``reader`` through ``context`` into ``writer``."""
    ins = [np.empty(chunk, np.uint8), np.empty(chunk, np.uint8)]
    outs = [np.empty(chunk + 8, np.uint8), np.empty(chunk + 8, np.uint8)]
    if not overlap:
        while n := _readinto_full(reader, ins[0]):
            m = context.update_into(ins[0][:n], outs[0])
            writer.write(memoryview(outs[0][:m]))
            if progress:
                progress(n)
        return
    with ThreadPoolExecutor(1, thread_name_prefix="numbades-enc-io") as io:
        try:
            i = 0
            n = _readinto_full(reader, ins[0])
            wrote = None
            while n:
                nxt = io.submit(_readinto_full, reader, ins[1 - i])
                m = context.update_into(ins[i][:n], outs[i])
                if wrote is not None:
                    wrote.result()
                wrote = io.submit(writer.write, memoryview(outs[i][:m]))
                if progress:
                    progress(n)
                n = nxt.result()
                i = 1 - i
            if wrote is not None:
                wrote.result()
        except BaseException:
            io.shutdown(wait=True, cancel_futures=True)
            raise
