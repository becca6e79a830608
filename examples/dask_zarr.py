"""Encrypt a Zarr array into another Zarr array on a Dask cluster, then decrypt it back.

    python -m pip install ".[dask]"                   # Dask, distributed and Zarr
    python examples/dask_zarr.py                      # 64 MiB in 4 MiB chunks, 2 local workers
    python examples/dask_zarr.py --size 1G --chunk 64M --dir /data/scratch

A legacy archive under Triple-DES-CBC: encryption is a chain of tasks (each
chunk needs the previous chunk's last ciphertext block), read from one Zarr
store and written to another chunk by chunk, so no step needs the whole
array in memory (though Dask may read plaintext chunks ahead of the chain,
within the workers' memory limits: docs/api.md); decryption runs every chunk
in parallel.  The check at the end compares the stores chunk by chunk.
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from pathlib import Path

import dask.array as da
import numpy as np

import numbades
import numbades.dask

_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def encrypt_zarr(cipher: numbades.TripleDES, source: str, target: str, iv: bytes) -> None:
    """Encrypt the 1-D uint8 Zarr array at ``source`` into a new one at ``target`` (CBC)."""
    plain = da.from_zarr(source)
    numbades.dask.encrypt(cipher, plain, "cbc", iv=iv).to_zarr(target)


def decrypt_zarr(cipher: numbades.TripleDES, source: str, target: str, iv: bytes) -> None:
    """Decrypt the Zarr array at ``source`` (from :func:`encrypt_zarr`) into ``target``."""
    secret = da.from_zarr(source)
    numbades.dask.decrypt(cipher, secret, "cbc", iv=iv).to_zarr(target)


def same_arrays(a: str, b: str) -> bool:
    """Whether two Zarr arrays hold the same bytes, compared chunk by chunk."""
    return bool((da.from_zarr(a) == da.from_zarr(b)).all().compute())


def write_random_zarr(path: str, size: int, chunk: int, seed: int = 0) -> None:
    """A Zarr array of ``size`` random bytes in chunks of ``chunk`` bytes, generated on the cluster."""
    data = da.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8, chunks=chunk)
    data.to_zarr(path)


def _size(text: str) -> int:
    unit = _UNITS.get(text[-1:].upper(), 1)
    return int(text[:-1] if unit > 1 else text) * unit


def main(argv: list[str] | None = None) -> None:
    from distributed import Client, LocalCluster

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=_size, default=64 << 20, help="bytes (e.g. 64M, 1G)")
    parser.add_argument("--chunk", type=_size, default=4 << 20, help="bytes per chunk, x8")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dir", default=None, help="where the stores go (default: a temp dir)")
    args = parser.parse_args(argv)
    cipher = numbades.TripleDES(secrets.token_bytes(24))
    iv = secrets.token_bytes(8)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp, \
            LocalCluster(n_workers=args.workers, threads_per_worker=1,
                         host="127.0.0.1", dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        numbades.dask.warm_up(client)
        plain, secret, back = (str(Path(tmp) / name) for name in ("plain", "secret", "back"))
        write_random_zarr(plain, args.size, args.chunk)
        for what, step in (("encrypt (a chain)", lambda: encrypt_zarr(cipher, plain, secret, iv)),
                           ("decrypt (parallel)", lambda: decrypt_zarr(cipher, secret, back, iv))):
            started = time.perf_counter()
            step()
            seconds = time.perf_counter() - started
            print(f"{what:20} {args.size / seconds / 1e6:8.1f} MB/s")
        assert not same_arrays(plain, secret), "the ciphertext equals the plaintext"
        assert same_arrays(plain, back), "decryption did not give the plaintext back"
        print("round trip through Zarr: identical")


if __name__ == "__main__":
    main()
