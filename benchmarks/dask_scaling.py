#!/usr/bin/env python
"""numbades.dask on a local cluster, in one run: ``python benchmarks/dask_scaling.py``.

Triple-DES over a 1 GiB stream (``--size``), every figure the median of
``--repeats`` runs, with the setups measured in turn inside each repeat
(interleaved, so a machine busy with other work slows them alike):

1. **Scaling**: CTR and ECB encryption on a ``LocalCluster`` of 2 workers
   (1 thread each) against 1 worker, 64 MiB chunks (``--chunk``).
   Target: >= 1.8x on 2 cores.  Beside it, the same work without Dask: two
   plain processes each encrypting half the bytes against one process
   encrypting both halves, which is what the machine allows in this run
   (another program on the second core lowers both alike).
2. **Overhead**: 1 worker against plain ``cipher.encrypt`` of the same bytes
   in this process's memory with one Numba thread (one core each).  Target
   >= 0.8x at 64 MiB chunks; ``--sweep`` sizes show how it moves with chunk size.
   Also printed: in memory in calls of one chunk each, which separates
   what Dask costs from what one very large call costs (a fresh output of
   the whole size).
3. **CBC decryption** of the stream on 2 workers against
   ``openssl enc -d -des-ede3-cbc -nopad`` of the same bytes (one core,
   file in the page cache, output to /dev/null).

Cluster timings are ``persist`` + ``wait``: the input is already in the
workers' memory (generated there, persisted), the result stays there; nothing
crosses to this process.  The load average before and after is printed: on a
shared machine, read the ratios, not the rates.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import numba
import numpy as np
from distributed import Client, LocalCluster, wait

import numbades
import numbades.dask
from benchmarks import interleaved  # the asv suite's helpers, beside this script
from numbades.cli.measure import format_size, machine_line, parse_size

KEY = bytes.fromhex("0123456789abcdeffedcba987654321089abcdef01234567")
IV = bytes.fromhex("1032547698badcfe")
SEED = 20261204


def _cluster(workers: int) -> tuple[LocalCluster, Client]:
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address=":0")
    client = Client(cluster, set_as_default=False)
    numbades.dask.warm_up(client)
    return cluster, client


def _stream(client: Client, size: int, chunk: int):
    """``size`` random bytes in ``chunk``-byte chunks, generated and kept on the workers."""
    import dask.array as da

    x = da.random.default_rng(SEED).integers(0, 256, size, dtype=np.uint8, chunks=chunk)
    x = client.persist(x)
    _wait(client, x)
    return x


def _wait(client: Client, x) -> None:
    with client.as_current():
        wait(x)


def _on_cluster(client: Client, x, mode: str, decrypt: bool = False) -> Callable[[], None]:
    run = numbades.dask.decrypt if decrypt else numbades.dask.encrypt
    iv = None if mode == "ecb" else IV

    def call() -> None:
        # A new cipher object each time: a new graph key for it, so new result keys, and
        # no run can find the previous run's results still held by the scheduler.
        cipher = numbades.TripleDES(KEY)
        y = client.persist(run(cipher, x, mode, iv=iv))
        _wait(client, y)
        del y

    return call


def _in_memory(data: np.ndarray, mode: str, piece: int | None = None) -> Callable[[], None]:
    """``cipher.encrypt`` of all of ``data`` in one call, or in calls of ``piece`` bytes."""
    cipher = numbades.TripleDES(KEY)
    iv = None if mode == "ecb" else IV
    if piece is None:
        return lambda: cipher.encrypt(data, mode, iv=iv)

    def in_pieces() -> None:
        for start in range(0, data.size, piece):
            counter = None if iv is None else ((int.from_bytes(iv, "big") + start // 8)
                                               % 2**64).to_bytes(8, "big")
            cipher.encrypt(data[start:start + piece], mode, iv=counter)

    return in_pieces


_HALF: dict[str, object] = {}


def _process_setup(nbytes: int, chunk: int) -> None:
    """In a plain process (no Dask): one Numba thread, half the stream, kernels loaded."""
    numba.set_num_threads(1)
    data = np.random.default_rng(SEED).integers(0, 256, nbytes, dtype=np.uint8)
    _HALF.update(data=data, chunk=chunk)
    _in_memory(data[: 1 << 16], "ctr")()
    _in_memory(data[: 1 << 16], "ecb")()


def _process_encrypt(mode: str, times: int) -> None:
    for _ in range(times):
        _in_memory(_HALF["data"], mode, _HALF["chunk"])()


def _process_pool(size: int, chunk: int) -> ProcessPoolExecutor:
    pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_process_setup, initargs=(size // 2 // 8 * 8, chunk))
    list(pool.map(_process_encrypt, ["ctr", "ctr"], [0, 0]))  # start both processes
    return pool


def _plain_processes(pool: ProcessPoolExecutor, mode: str) -> dict[str, Callable[[], None]]:
    """Two processes encrypting a half each, and one process encrypting two halves."""
    return {"procs2": lambda: list(pool.map(_process_encrypt, [mode, mode], [1, 1])),
            "procs1": lambda: pool.submit(_process_encrypt, mode, 2).result()}


def _openssl_cbc_decrypt(path: str) -> Callable[[], None]:
    command = ["openssl", "enc", "-d", "-des-ede3-cbc", "-nopad", "-K", KEY.hex(), "-iv", IV.hex(),
               "-in", path, "-out", os.devnull]
    return lambda: subprocess.run(command, check=True)


def _rate(size: int, seconds: float) -> str:
    return f"{size / seconds / 1e6:8.1f} MB/s"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=1 << 30, help="bytes (default 1G)")
    parser.add_argument("--chunk", type=parse_size, default=64 << 20, help="default 64M")
    parser.add_argument("--sweep", default="16M,64M,256M",
                        help="chunk sizes for 1 worker vs memory ('' to skip)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip-openssl", action="store_true")
    args = parser.parse_args(argv)
    size, chunk = args.size // 8 * 8, args.chunk // 8 * 8
    numba.set_num_threads(1)  # the in-memory reference: one core, as one worker has
    logging.getLogger("distributed").setLevel(logging.WARNING)  # no start/close chatter
    print(machine_line())
    print(f"Triple-DES, {format_size(size)} stream, {format_size(chunk)} chunks, "
          f"median of {args.repeats}; load average before: {os.getloadavg()}")

    two_cluster, two = _cluster(2)
    one_cluster, one = _cluster(1)
    pool = _process_pool(size, chunk)
    try:
        x2, x1 = _stream(two, size, chunk), _stream(one, size, chunk)
        data = x1.compute(scheduler=one)  # the same bytes, in this process
        print("\n1. scaling and 2. overhead at the main chunk size")
        for mode in ("ctr", "ecb"):
            t = interleaved({"two": _on_cluster(two, x2, mode), "one": _on_cluster(one, x1, mode),
                             "memory": _in_memory(data, mode),
                             "pieces": _in_memory(data, mode, chunk),
                             **_plain_processes(pool, mode)}, args.repeats)
            print(f"  {mode}: 2 workers {_rate(size, t['two'])}, 1 worker {_rate(size, t['one'])}, "
                  f"in memory {_rate(size, t['memory'])} (one call), "
                  f"{_rate(size, t['pieces'])} (one call per chunk)\n"
                  f"       2 vs 1 worker {t['one'] / t['two']:.2f}x; 1 worker vs in memory "
                  f"{t['memory'] / t['one']:.2f}x (one call), "
                  f"{t['pieces'] / t['one']:.2f}x (one call per chunk)\n"
                  f"       without Dask, 2 processes vs 1: {t['procs1'] / t['procs2']:.2f}x "
                  "(what the machine allowed)")
        if args.sweep:
            print("\n2. 1 worker vs in memory by chunk size (ctr)")
            del x1
            for text in args.sweep.split(","):
                sweep_chunk = parse_size(text) // 8 * 8
                xs = _stream(one, size, sweep_chunk)
                t = interleaved({"one": _on_cluster(one, xs, "ctr"),
                                 "memory": _in_memory(data, "ctr"),
                                 "pieces": _in_memory(data, "ctr", sweep_chunk)}, args.repeats)
                print(f"  {format_size(sweep_chunk):>8} chunks: 1 worker {_rate(size, t['one'])}, "
                      f"in memory {_rate(size, t['memory'])} (one call), "
                      f"{_rate(size, t['pieces'])} (one call per chunk); 1 worker vs in memory "
                      f"{t['memory'] / t['one']:.2f}x, {t['pieces'] / t['one']:.2f}x")
                del xs
        if not args.skip_openssl and shutil.which("openssl"):
            print("\n3. CBC decryption: 2 workers vs openssl enc -d -des-ede3-cbc (one core)")
            with tempfile.NamedTemporaryFile(suffix=".bin") as file:
                data.tofile(file.name)
                t = interleaved({"two": _on_cluster(two, x2, "cbc", decrypt=True),
                                 "openssl": _openssl_cbc_decrypt(file.name)}, args.repeats)
            print(f"  2 workers {_rate(size, t['two'])}, openssl {_rate(size, t['openssl'])}, "
                  f"ratio {t['openssl'] / t['two']:.2f}x")
    finally:
        pool.shutdown()
        for client, cluster in ((two, two_cluster), (one, one_cluster)):
            client.close()
            cluster.close()
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
