"""numbades.dask on a cluster: keys on the wire, workers, Numba threads, TLS, Zarr end to end.

- Cipher objects pickle as their round keys and engine request (never via
  the repr) and enter a graph once, under a name that says nothing of the key.
- Workers warm up once (a plugin), run the numbades under test, and give each
  task one Numba thread unless told otherwise.
- A cluster secured with TLS (``Security.temporary()``) computes the same bytes.
- A Zarr array is encrypted into another and decrypted back, chunk by chunk.
"""

from __future__ import annotations

import pickle
import subprocess
import sys

import dask
import dask.array as da
import numba
import numpy as np
import pytest

import numbades
import numbades.dask as nd
from examples.dask_zarr import decrypt_zarr, encrypt_zarr, same_arrays

from ..oracle import random_key, ref_decrypt, ref_encrypt


@pytest.mark.parametrize(
    "make",
    [lambda k: numbades.DES(k[:8]), lambda k: numbades.TripleDES(k[:16]),
     lambda k: numbades.TripleDES(k, "table+unroll+risc1"), lambda k: numbades.DES(k[:8], "bitslice")],
    ids=["des", "3des-16", "3des-24-forced-table", "des-bitslice"],
)
def test_ciphers_pickle_as_round_keys_and_engine_request(make):
    rng = np.random.default_rng(3)
    key = random_key(rng, 24)
    cipher = make(key)
    data = rng.integers(0, 256, 8 * 500, dtype=np.uint8)
    fresh = pickle.dumps(cipher)
    expected = cipher.encrypt(data, "cbc", iv=bytes(8))  # builds and caches key forms
    wire = pickle.dumps(cipher)
    assert len(wire) == len(fresh)  # cached key forms stay behind
    for secret in (key, key[:8], key[8:16]):
        assert secret not in wire  # round keys travel, not the key bytes
    assert repr(cipher).encode() not in wire
    copy = pickle.loads(wire)
    assert type(copy) is type(cipher) and copy.variant == cipher.variant
    assert np.array_equal(copy.encrypt(data, "cbc", iv=bytes(8)), expected)
    assert copy.decrypt(expected, "cbc", iv=bytes(8)).tobytes() == data.tobytes()


def test_the_cipher_is_one_graph_key_named_by_nothing_secret():
    key = bytes(range(1, 25))
    cipher = numbades.TripleDES(key)
    x = da.from_array(np.zeros(8 * 400, np.uint8), chunks=64)
    y = nd.decrypt(cipher, nd.encrypt(cipher, x, "cbc", iv=bytes(8)), "cbc", iv=bytes(8))
    graph = dict(y.__dask_graph__())
    holders = [k for k, v in graph.items() if getattr(v, "value", v) is cipher]
    assert len(holders) == 1 and holders[0].startswith("numbades-cipher-")
    tasks_using_it = [k for k in graph if holders[0] in dask.core.get_dependencies(graph, k)]
    assert len(tasks_using_it) == 2 * 50  # every chunk task of both layers (50 chunks each)
    (optimized,) = dask.optimize(y)  # what a scheduler receives: one copy of the round keys
    round_keys = cipher._schedule.round_keys.tobytes()
    assert pickle.dumps(dict(optimized.__dask_graph__())).count(round_keys) == 1
    twin = nd.encrypt(numbades.TripleDES(key), x, "cbc", iv=bytes(8))
    twin_holders = [k for k, v in dict(twin.__dask_graph__()).items()
                    if isinstance(getattr(v, "value", v), numbades.TripleDES)]
    assert twin_holders != holders  # the same key, another object: an unrelated name


def test_workers_warm_up_once_and_run_this_numbades(dask_client):
    seconds = nd.warm_up(dask_client)
    assert len(seconds) == 2 and all(s is not None and s >= 0 for s in seconds.values())
    plugins = dask_client.run(lambda dask_worker: sorted(dask_worker.plugins))
    assert all(nd.WarmUpPlugin.name in names for names in plugins.values())
    paths = dask_client.run(lambda: numbades.__file__)
    assert set(paths.values()) == {numbades.__file__}


class _ThreadReporter(numbades.DES):
    """A cipher whose 'encryption' reports the Numba threads the task may use."""

    def encrypt(self, data, mode="ecb", **kwargs):
        return np.full(data.shape, numba.get_num_threads(), dtype=data.dtype)


def test_tasks_use_one_numba_thread_unless_told(compute, dask_client):
    available = min(dask_client.run(lambda: numba.config.NUMBA_NUM_THREADS).values())
    available = min(available, numba.config.NUMBA_NUM_THREADS)
    reporter = _ThreadReporter(bytes(8))
    x = da.from_array(np.zeros(64, np.uint8), chunks=16)
    default, two, untouched = compute(
        nd.encrypt(reporter, x, "ecb"),
        nd.encrypt(reporter, x, "ecb", numba_threads=2),
        nd.encrypt(reporter, x, "ecb", numba_threads=None),
    )
    assert set(default) == {1}
    assert set(two) == {min(2, available)}
    assert set(untouched) == {available}


def test_the_thread_limit_is_put_back():
    from numbades.dask.threads import numba_threads

    before = numba.get_num_threads()
    with numba_threads(1):
        assert numba.get_num_threads() == 1
    assert numba.get_num_threads() == before


def test_tls_cluster_carries_keys_encrypted():
    """The graph (and so the round keys) travels over TLS between client, scheduler and workers.

    Also: a worker that joins after ``warm_up(client)`` is warmed up by the plugin.
    """
    from distributed import Client, LocalCluster
    from distributed.security import Security

    from numbades.dask import workers as workers_module

    security = Security.temporary()
    rng = np.random.default_rng(443)
    key = random_key(rng, 24)
    iv = rng.bytes(8)
    data = rng.integers(0, 256, 8 * 100 + 3, dtype=np.uint8)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0", security=security) as cluster, \
            Client(cluster, security=security, set_as_default=False) as client:
        assert client.scheduler.address.startswith("tls://")
        assert len(nd.warm_up(client)) == 1
        cluster.scale(2)  # a worker that joins later warms up too (the plugin)
        client.wait_for_workers(2, timeout=120)
        warmed = client.run(lambda: workers_module.last_seconds)
        assert len(warmed) == 2 and all(s is not None for s in warmed.values())
        workers = client.scheduler_info()["workers"]
        assert len(workers) == 2 and all(address.startswith("tls://") for address in workers)
        cipher = numbades.TripleDES(key)
        x = da.from_array(data, chunks=64)
        enc, dec = client.compute([nd.encrypt(cipher, x, "cfb", iv=iv),
                                   nd.decrypt(cipher, x, "cfb", iv=iv)], sync=True)
    assert enc.tobytes() == ref_encrypt(key, "cfb", iv, data.tobytes())
    assert dec.tobytes() == ref_decrypt(key, "cfb", iv, data.tobytes())


def test_zarr_round_trip_chunk_by_chunk(dask_client, tmp_path):
    """examples/dask_zarr.py: Zarr -> encrypted Zarr -> decrypted Zarr, on the cluster."""
    import zarr

    rng = np.random.default_rng(2)
    key = random_key(rng, 24)
    iv = rng.bytes(8)
    data = rng.integers(0, 256, 8 * 1000, dtype=np.uint8)
    plain, secret, back = (str(tmp_path / name) for name in ("plain", "secret", "back"))
    da.from_array(data, chunks=8 * 125).to_zarr(plain)
    cipher = numbades.TripleDES(key)
    with dask_client.as_current():
        encrypt_zarr(cipher, plain, secret, iv)
        decrypt_zarr(cipher, secret, back, iv)
        assert same_arrays(plain, back)
    stored = zarr.open_array(secret, mode="r")
    assert stored.chunks == (1000,) and stored.dtype == np.uint8
    assert stored[:].tobytes() == ref_encrypt(key, "cbc", iv, data.tobytes())
    assert zarr.open_array(back, mode="r")[:].tobytes() == data.tobytes()


def test_importing_numbades_does_not_import_dask():
    code = "import sys, numbades; print('dask' in sys.modules, 'distributed' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=120)
    assert result.stdout.split() == ["False", "False"]
