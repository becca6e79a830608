"""First-call cost: import plus first encryption, in a fresh subprocess.

"cold" gives the child an empty ``NUMBA_CACHE_DIR``, so it compiles
everything it touches; "warm" runs a child once to fill a cache and then
times a second child against it (what ``cache=True`` buys).  Measured in a
subprocess because the benchmark process itself has long since imported and
compiled.  With ``auto`` a cold call is served by a table variant while the
bitslice kernels compile in a background process; the child waits for that
to finish after taking its figures, so it neither disturbs later benchmarks
nor leaves the "warm" cache half filled.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from . import library, variants

ENGINES = ("auto", *(v for v in ("table", "table+unroll+risc2+ptr", "bitslice") if v in variants()))

CHILD = """
import json, sys, time
t0 = time.perf_counter()
import numbades
t1 = time.perf_counter()
numbades.DES(bytes(8), variant=sys.argv[1]).encrypt(bytes(4096))
t2 = time.perf_counter()
try:
    from numbades.tuning.warmup import wait_for_background
except ImportError:  # a numbades without background compiles
    pass
else:
    wait_for_background()
print(json.dumps({"import": t1 - t0, "first_encrypt": t2 - t1, "total": t2 - t0}))
"""


def first_call(variant: str, cache_dir: str, pythonpath: str | None = None) -> dict[str, float]:
    """Seconds for import, first encrypt and both, in a child using ``cache_dir``.

    ``pythonpath``: where the child imports numbades from (default: wherever
    this interpreter would, i.e. the installed package).
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir, "NUMBA_NUM_THREADS": "1"}
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run(
        [sys.executable, "-c", CHILD, variant],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def cold_then_warm(variant: str, pythonpath: str | None = None) -> dict[str, dict[str, float]]:
    """:func:`first_call` with an empty cache, then again with the cache it filled.

    Used by ``compare.py`` and ``bitslice_report.py``; asv's :class:`FirstCall`
    runs the two states as separate parameters instead.
    """
    with tempfile.TemporaryDirectory(prefix="numbades-first-call-") as cache:
        return {state: first_call(variant, cache, pythonpath) for state in ("cold", "warm")}


class FirstCall:
    """Import + first ``encrypt`` of 4 KiB, cold and warm Numba cache."""

    params = (ENGINES or ("table",), ("cold", "warm"))
    param_names = ("variant", "cache")
    timeout = 900
    rounds = 1
    repeat = 1

    def setup(self, variant: str, cache: str) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="numbades-asv-cache-")
        library()  # skip on commits without the cipher API (teardown still runs)
        if cache == "warm":
            first_call(variant, self._tmp.name)

    def teardown(self, variant: str, cache: str) -> None:
        self._tmp.cleanup()

    def track_first_call_seconds(self, variant: str, cache: str) -> float:
        return first_call(variant, self._tmp.name)["total"]

    track_first_call_seconds.unit = "seconds"

    def track_first_encrypt_seconds(self, variant: str, cache: str) -> float:
        return first_call(variant, self._tmp.name)["first_encrypt"]

    track_first_encrypt_seconds.unit = "seconds"
