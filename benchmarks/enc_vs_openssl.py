"""``numbades enc`` against ``openssl enc`` on the same file, in one run.

    python benchmarks/enc_vs_openssl.py [--size 1G] [--dir /dev/shm] [--cipher des-ede3-cbc]

Makes a file of random bytes in ``--dir`` (tmpfs takes the disk out; the
page cache is warm), encrypts it with ``openssl enc`` (PBKDF2, one
iteration, so the key derivation costs nothing), then times, as
subprocesses, one after the other:

- ``-d``: ``openssl enc -d`` and ``numbades enc -d`` with Numba limited to one
  thread (``NUMBA_NUM_THREADS=1``), then with two (or ``--threads``);
- ``-e``: ``openssl enc -e`` and ``numbades enc -e`` (CBC encryption is
  sequential: one core).

Each figure is the best of ``--repeats`` wall-clock runs of the whole
command.  numbades's include its start-up (importing NumPy and Numba,
loading cached kernels), measured separately on an empty file and shown;
the "steady" ratio takes it out.  Peak memory is each process's maximum
resident set (``wait4``), shown above that of the empty-file run (the
interpreter with numbades loaded).  Outputs are checked against the input.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPENSSL = ["openssl", "enc", "-provider", "legacy", "-provider", "default"]
KDF = ["-pass", "pass:benchmark", "-pbkdf2", "-iter", "1"]


def size_arg(text: str) -> int:
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    text = text.strip().lower().rstrip("ib")
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


def timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    """(wall seconds, peak RSS in bytes) of one run of argv."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err}")
    return wall, usage.ru_maxrss * 1024


def best(argv: list[str], repeats: int, env: dict[str, str] | None = None) -> tuple[float, int]:
    runs = [timed(argv, env) for _ in range(repeats)]
    return min(r[0] for r in runs), max(r[1] for r in runs)


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=size_arg, default=1 << 30, help="file size (default 1G)")
    parser.add_argument("--dir", default="/dev/shm", help="where the files go (default /dev/shm)")
    parser.add_argument("--cipher", default="des-ede3-cbc")
    parser.add_argument("--threads", type=int, default=2, help="second -d run's Numba threads")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--no-overlap", action="store_true",
                        help="also time -d and -e (1 thread) without the I/O thread")
    args = parser.parse_args()
    work = Path(args.dir) / f"numbades-enc-bench-{os.getpid()}"
    work.mkdir()
    plain, enc, out, empty, check = (work / n for n in ("plain", "enc", "out", "empty", "check"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env1 = {**env, "NUMBA_NUM_THREADS": "1"}
    envn = {**env, "NUMBA_NUM_THREADS": str(args.threads)}
    ours = [sys.executable, "-m", "numbades", "enc", "-q"]
    cipher = f"-{args.cipher}"
    try:
        with open(plain, "wb") as f:
            left = args.size
            while left:
                n = min(left, 64 << 20)
                f.write(os.urandom(n))
                left -= n
        empty.write_bytes(b"")
        subprocess.run([*OPENSSL, "-e", cipher, *KDF, "-in", plain, "-out", enc], check=True,
                       stderr=subprocess.DEVNULL)
        # start-up and the interpreter's memory: numbades on an empty file (kernels loaded)
        subprocess.run([*ours, "-e", cipher, *KDF, "-in", empty, "-out", out], env=env1, check=True)
        start_e, rss0 = best([*ours, "-e", cipher, *KDF, "-in", empty, "-out", out], 3, env1)
        rows = []
        dec = ["-d", cipher, *KDF, "-in", str(enc), "-out", str(out)]
        o_d = best([*OPENSSL, *dec], args.repeats)
        n1_d = best([*ours, *dec], args.repeats, env1)
        assert filecmp.cmp(out, plain, shallow=False), "numbades -d output differs"
        nn_d = best([*ours, *dec], args.repeats, envn)
        assert filecmp.cmp(out, plain, shallow=False), "numbades -d output differs"
        encr = ["-e", cipher, *KDF, "-in", str(plain), "-out", str(out)]
        o_e = best([*OPENSSL, *encr], args.repeats)
        n1_e = best([*ours, *encr], args.repeats, env1)
        subprocess.run([*OPENSSL, "-d", cipher, *KDF, "-in", out, "-out", check], check=True,
                       stderr=subprocess.DEVNULL)
        assert filecmp.cmp(check, plain, shallow=False), "openssl cannot read numbades -e output"
        check.unlink()
        rows = [("-d", "1 thread", o_d, n1_d), ("-d", f"{args.threads} threads", o_d, nn_d),
                ("-e", "1 thread", o_e, n1_e)]
        if args.no_overlap:
            rows.append(("-d", "1, no I/O thread", o_d,
                         best([*ours, "--no-overlap", *dec], args.repeats, env1)))
            rows.append(("-e", "1, no I/O thread", o_e,
                         best([*ours, "--no-overlap", *encr], args.repeats, env1)))
    finally:
        for p in (plain, enc, out, empty, check):
            p.unlink(missing_ok=True)
        work.rmdir()
    mib = args.size / (1 << 20)
    print(f"numbades enc vs openssl enc, {args.cipher}, {mib:.0f} MiB in {args.dir}")
    print(f"host: {platform.system()} {platform.machine()} - {cpu_name()} - {os.cpu_count()} CPUs"
          f" - Python {platform.python_version()} - "
          + subprocess.run(["openssl", "version"], capture_output=True, text=True, check=False).stdout.strip())
    print(f"numbades start-up (empty file): {start_e:.2f} s, RSS {rss0 / 2**20:.0f} MiB")
    print(f"{'dir':3} {'numbades':16} {'openssl s':>9} {'numbades s':>10} {'MB/s':>7} "
          f"{'ratio':>6} {'steady':>6} {'peak above interp.':>19}")
    for direction, threads, (o_t, _), (n_t, n_rss) in rows:
        steady = o_t / max(n_t - start_e, 1e-9)
        print(f"{direction:3} {threads:16} {o_t:9.2f} {n_t:10.2f} {args.size / n_t / 1e6:7.1f} "
              f"{o_t / n_t:5.2f}x {steady:5.2f}x {(n_rss - rss0) / 2**20:15.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
