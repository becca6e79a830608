"""The Dask tests' cluster: one for this package, on this machine only, closed after its last test.

``dask_client`` starts a ``distributed.LocalCluster`` of two worker
processes with one thread each the first time a test asks for it, and closes
it when the last test of this package has run (package scope), so the rest
of the suite runs without idle workers beside it.  ``compute`` runs a test
once on the threaded scheduler and once on that cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from numbades.tuning import saved_choice


@pytest.fixture(scope="package")
def dask_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A ``distributed`` cluster on this machine only: 2 worker processes of 1 thread each.

    Started once for this package and closed after its last test.  The kernels are
    compiled (or loaded) in this process first, so that the workers, which
    import the same numbades and so share its ``__pycache__``, only load them.
    The workers get the library defaults too: a private, empty
    ``NUMBADES_CACHE_DIR``, no ``NUMBADES_VARIANT`` and no background compiles
    (this fixture is set up before the per-test defaults of ``tests/conftest.py``,
    so it sets them itself).  Not the default
    scheduler: tests name the scheduler they use.
    """
    from distributed import Client, LocalCluster

    import numbades.dask

    with pytest.MonkeyPatch.context() as env:
        env.setenv(saved_choice.ENV_DIR, str(tmp_path_factory.mktemp("numbades-cache-workers")))
        env.delenv("NUMBADES_VARIANT", raising=False)
        env.setenv("NUMBADES_BACKGROUND_COMPILE", "0")
        numbades.dask.warm_up()
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=":0")
    client = Client(cluster, set_as_default=False)
    try:
        numbades.dask.warm_up(client)
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.fixture(params=["threads", "cluster"])
def compute(request: pytest.FixtureRequest) -> Callable[..., tuple]:
    """``dask.compute`` on the threaded scheduler or on the package's cluster."""
    import dask

    if request.param == "threads":
        return lambda *arrays: dask.compute(*arrays, scheduler="threads")
    client = request.getfixturevalue("dask_client")
    return lambda *arrays: tuple(client.compute(list(arrays), sync=True))
