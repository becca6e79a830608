"""Bad input to numbades.dask: a clear TypeError / ValueError when the call is made.

Every error is raised while the graph is being built, before any chunk is
computed: the input arrays here would fail loudly (RuntimeError) if any
chunk were computed.
"""

from __future__ import annotations

import dask.array as da
import numpy as np
import pytest

import numbades
import numbades.dask as nd

CIPHER = numbades.TripleDES(bytes(range(24)))
IV = bytes(8)


def _untouchable(shape, chunks, dtype=np.uint8) -> da.Array:
    """A dask array whose chunks raise if they are ever computed."""
    def boom(block):
        raise RuntimeError("a chunk was computed")

    return da.zeros(shape, chunks=chunks, dtype=dtype).map_blocks(boom, dtype=dtype)


STREAM = _untouchable(64, 16)
ROWS = _untouchable((6, 16), (2, 16))


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: nd.encrypt(CIPHER, np.zeros(64, np.uint8), "ctr", iv=IV), TypeError,
         "must be a dask.array.Array, not ndarray"),
        (lambda: nd.encrypt(CIPHER, b"x" * 64, "ctr", iv=IV), TypeError, "not bytes"),
        (lambda: nd.encrypt("key", STREAM, "ctr", iv=IV), TypeError,
         "numbades.DES or numbades.TripleDES"),
        (lambda: nd.encrypt(CIPHER, _untouchable(64, 16, np.int32), "ctr", iv=IV), TypeError,
         "unsupported array dtype int32"),
        (lambda: nd.decrypt(CIPHER, _untouchable(8, 4, np.float64), "ecb"), TypeError,
         "unsupported array dtype float64"),
        (lambda: nd.encrypt(CIPHER, ROWS, "ctr", iv=IV), ValueError, "must be 1-D"),
        (lambda: nd.encrypt(CIPHER, _untouchable(64, 13), "ctr", iv=IV), ValueError,
         r"falls at byte 13, inside an 8-byte block.*x.rechunk\(8\).*rechunk=True"),
        (lambda: nd.decrypt(CIPHER, _untouchable(64, (20, 44)), "cbc", iv=IV), ValueError,
         r"x.rechunk\(16\)"),
        (lambda: nd.encrypt(CIPHER, STREAM, "xts", iv=IV), ValueError, "unknown mode 'xts'"),
        (lambda: nd.encrypt(CIPHER, STREAM, 3, iv=IV), TypeError, "mode must be a str"),
        (lambda: nd.encrypt(CIPHER, STREAM, "cbc"), ValueError, "needs an iv"),
        (lambda: nd.encrypt(CIPHER, STREAM, "cbc", iv=b"short"), ValueError, "8 bytes"),
        (lambda: nd.encrypt(CIPHER, STREAM, "ecb", iv=IV), ValueError, "ECB takes no iv"),
        (lambda: nd.encrypt(CIPHER, STREAM, "ctr", iv=IV, padding="pkcs7"), ValueError,
         "takes any length and no padding"),
        (lambda: nd.encrypt(CIPHER, _untouchable(8, 4, np.uint64), "cbc", iv=IV,
                            padding="pkcs7"), TypeError, "padding works on bytes"),
        (lambda: nd.encrypt(CIPHER, _untouchable(60, 16), "cbc", iv=IV), ValueError,
         "60 bytes, not a multiple of the 8-byte block"),
        (lambda: nd.decrypt(CIPHER, _untouchable(60, 16), "ecb", padding="pkcs7"), ValueError,
         "not a multiple of the 8-byte block"),
        (lambda: nd.decrypt(CIPHER, _untouchable(0, 16), "ecb", padding="pkcs7"), ValueError,
         "at least one block"),
        (lambda: nd.encrypt(CIPHER, STREAM[STREAM > 0], "ctr", iv=IV), ValueError,
         "unknown chunk sizes"),
        (lambda: nd.encrypt(CIPHER, STREAM, "ctr", iv=IV, numba_threads=0), ValueError,
         "at least 1"),
        (lambda: nd.encrypt(CIPHER, STREAM, "ctr", iv=IV, numba_threads=1.5), TypeError,
         "numba_threads must be a positive int or None"),
        (lambda: nd.encrypt(CIPHER, STREAM, "ctr", iv=IV, rechunk="yes"), TypeError,
         "rechunk must be a bool"),
        (lambda: nd.encrypt(numbades.DES(bytes(8), "bitslice"), STREAM, "cfb8", iv=IV),
         ValueError, "cfb8 has no bitslice path"),
        (lambda: nd.encrypt(CIPHER, STREAM, "pcbc", iv=IV), ValueError, "no 'pcbc'"),
        (lambda: nd.decrypt(CIPHER, STREAM, "cfb1", iv=IV), ValueError, "no 'cfb1'"),
        (lambda: nd.encrypt(CIPHER, STREAM, "cbc", iv=IV, padding="iso7816"), ValueError,
         "'pkcs7' only"),
        (lambda: nd.encrypt(numbades.DESX(bytes(range(24))), STREAM, "ecb"), TypeError,
         "numbades.DES or numbades.TripleDES"),
    ],
)
def test_streams_refuse_bad_input_before_any_work(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: nd.encrypt_many(CIPHER, np.zeros((6, 16), np.uint8), "ecb"), TypeError,
         "must be a dask.array.Array"),
        (lambda: nd.encrypt_many(CIPHER, STREAM, "ecb"), ValueError, "must be 2-D"),
        (lambda: nd.encrypt_many(CIPHER, _untouchable((6, 4), (2, 4), np.int16), "ecb"),
         TypeError, "unsupported array dtype int16"),
        (lambda: nd.encrypt_many(CIPHER, _untouchable((6, 12), (2, 12)), "ecb"), ValueError,
         "12 bytes, not a multiple of the 8-byte block"),
        (lambda: nd.encrypt_many(CIPHER, ROWS, "cbc", ivs=np.zeros((5, 8), np.uint8)),
         ValueError, r"ivs must have shape \(6, 8\) for 6 messages, got \(5, 8\)"),
        (lambda: nd.decrypt_many(CIPHER, ROWS, "ctr", ivs=da.zeros(7, dtype=np.uint64)),
         ValueError, r"ivs must have shape \(6,\) for 6 messages, got \(7,\)"),
        (lambda: nd.encrypt_many(CIPHER, ROWS, "cbc", ivs=np.zeros((6, 4), np.uint16)),
         TypeError, "unsupported ivs dtype uint16"),
        (lambda: nd.encrypt_many(CIPHER, ROWS, "cbc", ivs=[IV] * 6), TypeError,
         "ivs must be a NumPy or dask array"),
        (lambda: nd.encrypt_many(CIPHER, ROWS, "cbc"), ValueError, "needs ivs"),
        (lambda: nd.encrypt_many(CIPHER, ROWS, "ecb", ivs=np.zeros((6, 8), np.uint8)),
         ValueError, "ECB takes no ivs"),
        (lambda: nd.encrypt_many(CIPHER, ROWS, "cfb8", ivs=np.zeros((6, 8), np.uint8)),
         ValueError, "not available for many messages"),
        (lambda: nd.encrypt_many(CIPHER, ROWS, "gcm"), ValueError, "unknown mode"),
        (lambda: nd.encrypt_many(CIPHER, _untouchable((6, 16), (2, 8)), "ecb"), ValueError,
         r"second axis is split into 2 chunks.*x.rechunk\(\{1: -1\}\).*rechunk=True"),
    ],
)
def test_rows_refuse_bad_input_before_any_work(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_warm_up_refuses_an_unknown_variant():
    with pytest.raises(ValueError, match="unknown variant"):
        nd.warm_up(variants=["table+fast"])


def test_variants_take_one_name_or_a_list():
    """A str is one engine name, never its letters (issue 39, item 5)."""
    assert nd.WarmUpPlugin(variants="bitslice").variants == ("bitslice",)
    assert nd.WarmUpPlugin(variants=["table", "bitslice"]).variants == ("table", "bitslice")
    with pytest.raises(ValueError, match="unknown variant 'table\\+fast'"):
        nd.warm_up(variants="table+fast")
    with pytest.raises(ValueError, match="unknown variant 'nope'"):
        nd.WarmUpPlugin(variants="nope")
    with pytest.raises(TypeError, match="engine name"):
        nd.WarmUpPlugin(variants=3)
    assert set(nd.warm_up(variants="table")) == {"local"}
