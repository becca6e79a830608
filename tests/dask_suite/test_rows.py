"""numbades.dask.encrypt_many / decrypt_many: rows as messages, one IV per row, vs pycryptodome.

Every batch mode in both directions, DES and Triple-DES, IVs as NumPy or dask
arrays (uint8 (m, 8) or uint64 (m,)), on the threaded scheduler and a local
cluster; row chunks of several sizes, a row axis of one message per chunk,
an empty batch, and a split byte axis (``rechunk=True``).
"""

from __future__ import annotations

import dask
import dask.array as da
import numpy as np
import pytest

import numbades
import numbades.dask as nd

from ..oracle import random_key, ref_decrypt, ref_encrypt

MODES = ["ecb", "cbc", "cfb", "ofb", "ctr"]
#: (messages, row chunks, byte chunks)
LAYOUTS = [(7, 3, -1), (7, 1, -1), (300, 128, -1), (0, 4, -1), (5, 2, 8)]


def _cipher(key: bytes):
    return numbades.DES(key) if len(key) == 8 else numbades.TripleDES(key)


def _reference(key, mode, decrypt, rows, ivs):
    run = ref_decrypt if decrypt else ref_encrypt
    out = [run(key, mode, None if ivs is None else ivs[i].tobytes(), rows[i].tobytes())
           for i in range(rows.shape[0])]
    return np.frombuffer(b"".join(out), np.uint8).reshape(rows.shape)


@pytest.mark.parametrize("decrypt", [False, True], ids=["encrypt", "decrypt"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("ksize", [8, 24])
def test_rows_match_pycryptodome(compute, ksize, mode, decrypt):
    rng = np.random.default_rng([ksize, MODES.index(mode), decrypt, 1])
    key = random_key(rng, ksize)
    cipher = _cipher(key)
    run = nd.decrypt_many if decrypt else nd.encrypt_many
    cases, arrays = [], []
    for i, (m, row_chunks, byte_chunks) in enumerate(LAYOUTS):
        rows = rng.integers(0, 256, (m, 24), dtype=np.uint8)
        ivs = None if mode == "ecb" else rng.integers(0, 256, (m, 8), dtype=np.uint8)
        if ivs is not None and m > 2:
            ivs[2] = 0xFF  # a counter that wraps around 2**64
        given_ivs = ivs
        if ivs is not None and i % 2:  # alternately: dask uint64 block values, NumPy uint8
            given_ivs = da.from_array(ivs.view(">u8").reshape(-1).astype(np.uint64), chunks=2)
        x = da.from_array(rows, chunks=(row_chunks, byte_chunks))
        arrays.append(run(cipher, x, mode, ivs=given_ivs, rechunk=byte_chunks != -1))
        cases.append((rows, ivs))
    results = compute(*arrays)
    in_memory = cipher.decrypt_many if decrypt else cipher.encrypt_many
    for (rows, ivs), got in zip(cases, results, strict=True):
        assert got.shape == rows.shape and got.dtype == np.uint8
        assert np.array_equal(got, _reference(key, mode, decrypt, rows, ivs))
        assert np.array_equal(got, in_memory(rows, mode, ivs=ivs))


def test_uint64_rows(compute):
    rng = np.random.default_rng(11)
    key = random_key(rng, 16)
    cipher = _cipher(key)
    blocks = rng.integers(0, 2**64, (9, 3), dtype=np.uint64, endpoint=False)
    ivs = rng.integers(0, 2**64, 9, dtype=np.uint64, endpoint=False)
    x = da.from_array(blocks.astype(">u8"), chunks=(4, 3))
    enc, dec = compute(nd.encrypt_many(cipher, x, "cbc", ivs=ivs),
                       nd.decrypt_many(cipher, x, "cbc", ivs=ivs))
    as_bytes = blocks.astype(">u8").view(np.uint8).reshape(9, 24)
    iv_bytes = ivs.astype(">u8").view(np.uint8).reshape(9, 8)
    assert enc.dtype == np.dtype(">u8") and dec.dtype == np.dtype(">u8")
    assert np.array_equal(enc.view(np.uint8).reshape(9, 24),
                          _reference(key, "cbc", False, as_bytes, iv_bytes))
    assert np.array_equal(dec.view(np.uint8).reshape(9, 24),
                          _reference(key, "cbc", True, as_bytes, iv_bytes))


def test_rows_run_in_parallel_tasks_one_per_chunk_of_rows():
    """Every output chunk depends on its own rows, its own IVs and the cipher: nothing else."""
    cipher = numbades.DES(bytes(range(8)))
    x = da.from_array(np.zeros((40, 16), np.uint8), chunks=(10, 16))
    ivs = da.from_array(np.zeros((40, 8), np.uint8), chunks=(10, 8))
    y = nd.encrypt_many(cipher, x, "ofb", ivs=ivs)
    graph = dict(y.__dask_graph__())
    outputs = [key for key in graph if isinstance(key, tuple) and key[0] == y.name]
    assert len(outputs) == 4
    for key in outputs:
        deps = dask.core.get_dependencies(graph, key)
        r = key[1]
        assert len(deps) == 3
        assert (x.name, r, 0) in deps
        assert any(d != (x.name, r, 0) and d[1:] == (r, 0) for d in deps if isinstance(d, tuple))
        (cipher_key,) = [d for d in deps if not isinstance(d, tuple)]
        assert cipher_key.startswith("numbades-cipher-")
