"""Every test runs with the library's built-in behaviour, not the developer's.

The autouse fixture gives each test a private, empty ``NUMBADES_CACHE_DIR``
(no saved engine choices from ``numbades opts --save`` on this machine), no
``NUMBADES_VARIANT``, and ``NUMBADES_BACKGROUND_COMPILE=0`` so that ``auto``
picks engines by size and mode alone, whatever this process has compiled
(the background compile has tests of its own, in fresh processes); tests
that need otherwise set it themselves.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from numbades.tuning import policy, saved_choice


@pytest.fixture(autouse=True)
def _library_defaults(tmp_path_factory: pytest.TempPathFactory,
                      monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(saved_choice.ENV_DIR, str(tmp_path_factory.mktemp("numbades-cache")))
    monkeypatch.delenv("NUMBADES_VARIANT", raising=False)
    monkeypatch.setenv("NUMBADES_BACKGROUND_COMPILE", "0")
    saved_choice.forget_loaded()
    policy.forget_crypt3_preference()  # crypt(3) reads NUMBADES_VARIANT once per process
    yield
    saved_choice.forget_loaded()
    policy.forget_crypt3_preference()
