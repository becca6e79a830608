"""numbades.dask.encrypt / decrypt of one stream (docs/api.md, Dask) against pycryptodome.

Every mode in both directions, DES and Triple-DES, on the threaded scheduler
and on a local cluster of two worker processes (the ``compute`` fixture),
over chunk layouts that are whole blocks, one block each, a short last
chunk, an empty chunk, an empty array, and misaligned ones (``rechunk=True``).
The computed result must equal pycryptodome on the whole input and numbades
in memory.
"""

from __future__ import annotations

import threading
import weakref

import dask
import dask.array as da
import numpy as np
import pytest

import numbades
import numbades.dask as nd

from ..oracle import pycryptodome, random_key, ref_decrypt, ref_encrypt

MODES = ["ecb", "cbc", "cfb", "cfb8", "ofb", "ctr"]
#: (bytes, chunks): whole blocks, one block per chunk, a short last chunk, an
#: empty chunk inside, chunks of uneven whole blocks, an empty array.
ALIGNED = [(96, 32), (96, 8), (93, 16), (96, (40, 0, 56)), (93, (24, 64, 5, 0)), (0, 8)]
#: Chunk boundaries inside blocks: refused unless rechunk=True.
MISALIGNED = [(96, 13), (93, (5, 30, 58)), (96, (3, 3, 90))]


def _cipher(key: bytes, variant: str = "auto"):
    return numbades.DES(key, variant) if len(key) == 8 else numbades.TripleDES(key, variant)


def _whole_blocks_only(mode: str, n: int) -> bool:
    return mode in ("ecb", "cbc") and n % 8 != 0


@pytest.mark.parametrize("decrypt", [False, True], ids=["encrypt", "decrypt"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("ksize", [8, 24])
def test_streams_match_pycryptodome(compute, ksize, mode, decrypt):
    rng = np.random.default_rng([ksize, MODES.index(mode), decrypt])
    key = random_key(rng, ksize)
    cipher = _cipher(key)
    iv = None if mode == "ecb" else rng.bytes(8)
    run = nd.decrypt if decrypt else nd.encrypt
    reference = ref_decrypt if decrypt else ref_encrypt
    cases, arrays = [], []
    for n, chunks in ALIGNED + MISALIGNED:
        if _whole_blocks_only(mode, n):
            continue
        data = rng.integers(0, 256, n, dtype=np.uint8)
        x = da.from_array(data, chunks=chunks)
        cases.append((n, chunks, data))
        arrays.append(run(cipher, x, mode, iv=iv, rechunk=(n, chunks) in MISALIGNED))
    results = compute(*arrays)
    in_memory = cipher.decrypt if decrypt else cipher.encrypt
    for (n, chunks, data), got in zip(cases, results, strict=True):
        assert got.dtype == np.uint8 and got.shape == (n,)
        assert got.tobytes() == reference(key, mode, iv, data.tobytes()), (n, chunks)
        assert np.array_equal(got, in_memory(data, mode, iv=iv)), (n, chunks)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", ["=u8", ">u8"])
def test_uint64_blocks(compute, mode, order):
    """uint64 arrays are one big-endian block per element, either byte order, as in memory."""
    rng = np.random.default_rng([16, MODES.index(mode)])
    key = random_key(rng, 16)
    cipher = _cipher(key)
    iv = None if mode == "ecb" else rng.bytes(8)
    layouts = [(12, 4), (12, 1), (12, (5, 0, 7)), (0, 4)]
    datas = [rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False).astype(order)
             for n, _ in layouts]
    arrays = []
    for (_, chunks), data in zip(layouts, datas, strict=True):
        x = da.from_array(data, chunks=chunks)
        arrays += [nd.encrypt(cipher, x, mode, iv=iv), nd.decrypt(cipher, x, mode, iv=iv)]
    results = compute(*arrays)
    for i, data in enumerate(datas):
        enc, dec = results[2 * i], results[2 * i + 1]
        plain_bytes = data.astype(">u8").tobytes()
        assert enc.dtype == data.dtype and dec.dtype == data.dtype
        assert enc.astype(">u8").tobytes() == ref_encrypt(key, mode, iv, plain_bytes)
        assert dec.astype(">u8").tobytes() == ref_decrypt(key, mode, iv, plain_bytes)


@pytest.mark.parametrize("mode", ["ecb", "cbc"])
@pytest.mark.parametrize("ksize", [8, 24])
def test_pkcs7_padding_changes_only_the_final_chunk(compute, ksize, mode):
    rng = np.random.default_rng([ksize, 7])
    key = random_key(rng, ksize)
    cipher = _cipher(key)
    iv = None if mode == "ecb" else rng.bytes(8)
    layouts = [(93, 16), (96, 32), (5, 8), (0, 8), (93, (88, 5, 0))]
    datas = [rng.integers(0, 256, n, dtype=np.uint8) for n, _ in layouts]
    encrypted = [nd.encrypt(cipher, da.from_array(d, chunks=c), mode, iv=iv, padding="pkcs7")
                 for d, (_, c) in zip(datas, layouts, strict=True)]
    for y, (n, chunks) in zip(encrypted, layouts, strict=True):
        x_chunks = da.from_array(np.empty(n, np.uint8), chunks=chunks).chunks[0]
        final = max([i for i, size in enumerate(x_chunks) if size], default=len(x_chunks) - 1)
        assert y.chunks[0][:final] == x_chunks[:final]
        assert y.chunks[0][final] == x_chunks[final] // 8 * 8 + 8
    ciphertexts = compute(*encrypted)
    for data, ct in zip(datas, ciphertexts, strict=True):
        padded = data.tobytes() + bytes([8 - len(data) % 8]) * (8 - len(data) % 8)
        assert ct.tobytes() == pycryptodome(key, mode, iv).encrypt(padded)
    decrypted = [nd.decrypt(cipher, da.from_array(ct, chunks=16), mode, iv=iv, padding="pkcs7")
                 for ct in ciphertexts]
    for y in decrypted:
        assert np.isnan(y.chunks[0][-1]) and not np.isnan(y.chunks[0][:-1]).any()
    for data, got in zip(datas, compute(*decrypted), strict=True):
        assert got.tobytes() == data.tobytes()


def test_bad_padding_is_refused_when_computed(compute):
    cipher = numbades.DES(bytes(range(8)))
    garbage = cipher.encrypt(np.full(32, 0x41, np.uint8), "cbc", iv=bytes(8))  # no padding
    y = nd.decrypt(cipher, da.from_array(garbage, chunks=8), "cbc", iv=bytes(8), padding="pkcs7")
    with pytest.raises(ValueError, match="bad PKCS#7 padding"):
        compute(y)


def test_ctr_counter_wraps_across_chunks(compute):
    """Each chunk's counter is the IV plus the blocks before it, mod 2**64."""
    rng = np.random.default_rng(64)
    key = random_key(rng, 24)
    start = 2**64 - 3
    data = rng.integers(0, 256, 8 * 7 + 5, dtype=np.uint8)
    counters = b"".join(((start + i) % 2**64).to_bytes(8, "big") for i in range(8))
    stream = pycryptodome(key, "ecb").encrypt(counters)[: data.size]
    expected = bytes(a ^ b for a, b in zip(data.tobytes(), stream, strict=True))
    x = da.from_array(data, chunks=16)
    (got,) = compute(nd.encrypt(_cipher(key), x, "ctr", iv=start.to_bytes(8, "big")))
    assert got.tobytes() == expected


class _Recorder:
    """Records which input chunks a computation reads."""

    def __init__(self) -> None:
        self.read: set[int] = set()
        self._lock = threading.Lock()

    def array(self, data: np.ndarray, chunks: int) -> da.Array:
        def source(block: np.ndarray, block_info=None) -> np.ndarray:
            with self._lock:
                self.read.add(block_info[0]["chunk-location"][0])
            return block

        return da.from_array(data, chunks=chunks).map_blocks(source, dtype=np.uint8)


@pytest.mark.parametrize(
    ("mode", "decrypt", "chunks_read"),
    [
        ("ecb", False, {5}),
        ("ctr", False, {5}),
        ("ctr", True, {5}),
        ("cbc", True, {4, 5}),  # the last ciphertext block of the chunk before
        ("cfb", True, {4, 5}),
        ("cfb8", True, {4, 5}),
        ("cbc", False, {0, 1, 2, 3, 4, 5}),  # a chain: every chunk before it
        ("ofb", True, {0, 1, 2, 3, 4, 5}),
    ],
)
def test_a_chunk_reads_only_what_its_mode_needs(mode, decrypt, chunks_read):
    cipher = numbades.DES(bytes(range(8)))
    data = np.random.default_rng(5).integers(0, 256, 8 * 80, dtype=np.uint8)
    recorder = _Recorder()
    run = nd.decrypt if decrypt else nd.encrypt
    iv = None if mode == "ecb" else bytes(8)
    y = run(cipher, recorder.array(data, 64), mode, iv=iv)
    got = y.blocks[5].compute(scheduler="sync")
    assert recorder.read == chunks_read
    expected = (cipher.decrypt if decrypt else cipher.encrypt)(data, mode, iv=iv)[320:384]
    assert np.array_equal(got, expected)


class _LiveChunks:
    """Makes input chunks on demand and counts how many are alive at once."""

    def __init__(self) -> None:
        self.alive = self.most = 0
        self._lock = threading.Lock()

    def make(self, block: np.ndarray, block_info=None) -> np.ndarray:
        chunk = np.full(block.shape, block_info[0]["chunk-location"][0] % 256, np.uint8)
        with self._lock:
            self.alive += 1
            self.most = max(self.most, self.alive)
        weakref.finalize(chunk, self._gone)
        return chunk

    def _gone(self) -> None:
        with self._lock:
            self.alive -= 1


@pytest.mark.parametrize(("mode", "decrypt"), [("cbc", False), ("ofb", False), ("cfb8", False),
                                               ("cbc", True)])
def test_a_stream_is_processed_with_a_few_chunks_in_memory(mode, decrypt):
    """Out of core: 40 chunks stored one by one, never more than three input chunks held at once.

    On the synchronous scheduler, which reads no input ahead of the chain (the
    threaded and distributed schedulers may: docs/api.md, Dask).
    """
    cipher = numbades.DES(bytes(range(8)))
    live = _LiveChunks()
    x = da.zeros(64 * 40, dtype=np.uint8, chunks=64).map_blocks(live.make, dtype=np.uint8)
    y = (nd.decrypt if decrypt else nd.encrypt)(cipher, x, mode, iv=bytes(8))
    sink = np.empty(y.shape, np.uint8)
    da.store(y, sink, scheduler="sync", lock=False)
    assert 1 <= live.most <= 3
    expected_input = np.repeat(np.arange(40, dtype=np.uint8), 64)
    run = cipher.decrypt if decrypt else cipher.encrypt
    assert np.array_equal(sink, run(expected_input, mode, iv=bytes(8)))


def test_chain_links_wait_for_a_chaining_value_not_a_chunk():
    """In a chain, link i depends on the 8-byte state of link i - 1, never on its output chunk."""
    cipher = numbades.DES(bytes(range(8)))
    x = da.from_array(np.zeros(8 * 40, np.uint8), chunks=64)
    y = nd.encrypt(cipher, x, "cbc", iv=bytes(8))
    graph = dict(y.__dask_graph__())
    dependencies = {key: dask.core.get_dependencies(graph, key) for key in graph}
    output_keys = {(y.name, i) for i in range(y.numblocks[0])}
    links = [key for key in graph if isinstance(key, tuple) and key[0].endswith("-link")]
    assert len(links) == y.numblocks[0] - 1
    for link in links:
        assert not dependencies[link] & output_keys
        assert all(not (isinstance(d, tuple) and d[0].endswith("-link"))
                   for d in dependencies[link])
    (states,) = {key[0] for key in graph if isinstance(key, tuple) and key[0].endswith("-state")}
    assert sum(1 for link in links if (states, link[1] - 1) in dependencies[link]) == len(links) - 1


@pytest.mark.parametrize("chunks", [(13, 13, 13), (3, 3, 90), (16, 16), (0,), (5,), (7, 9, 0, 17, 8)])
def test_aligned_chunks_move_each_boundary_down_to_a_block(chunks):
    aligned = nd.aligned_chunks(chunks)
    assert sum(aligned) == sum(chunks)
    inner = np.cumsum(aligned)[:-1]
    assert all(end % 8 == 0 for end in inner)
    old_inner = [end for end in np.cumsum(chunks)[:-1] if end < sum(chunks)]
    assert set(inner) <= {end // 8 * 8 for end in old_inner}
    assert len(aligned) <= len(chunks)
