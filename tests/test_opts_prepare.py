"""``opts`` compiles what it times: which engines it compiles whole, the digests its
compiling processes hand back, and the rest of bitslice left to the background compile."""

from __future__ import annotations

import re

import numbades
from numbades.cli import asm, opts
from numbades.engines.registry import ENGINES


def test_only_the_default_table_variant_is_compiled_whole_when_bitslice_can_wait() -> None:
    slow = {n for n in numbades.variants() if ENGINES[n].slow_to_compile}
    assert slow == {"bitslice"}
    assert opts.compiled_fully(background=True) == {"table"}
    assert opts.compiled_fully(background=False) == {"table", "bitslice"}


def test_prepare_compiles_the_timed_kernel_and_returns_its_digest() -> None:
    seconds, digest = opts.prepare("table", 1024, full=False)
    kernel = ENGINES["table"].ecb_kernel
    assert seconds > 0 and kernel.signatures  # compiled (or loaded) here
    if asm.kernel_asm(kernel, copy=False):  # compiled in this process: its digest, for free
        assert digest is not None and re.fullmatch(r"[0-9a-f]{64}", digest)
    else:  # loaded from the cache: no digest rather than a second compile
        assert digest is None


def test_no_background_compile_when_background_compiles_are_off(monkeypatch) -> None:
    started = []
    monkeypatch.setenv("NUMBADES_BACKGROUND_COMPILE", "0")
    monkeypatch.setattr(opts.warmup, "ready_or_started",
                        lambda *a, **k: started.append(a) or False)
    assert opts.finish_in_background() is False
    assert started == []


def test_background_compile_asked_for_unless_bitslice_is_cached(monkeypatch) -> None:
    asked = []

    def ready_or_started(name, chain, ready):
        asked.append((name, ready))
        return False  # as when a child was started (or another process's is running)

    monkeypatch.setenv("NUMBADES_BACKGROUND_COMPILE", "1")
    monkeypatch.setattr(opts.warmup, "ready_or_started", ready_or_started)
    assert opts.finish_in_background() is True
    assert [name for name, _ in asked] == ["bitslice"]
    monkeypatch.setattr(opts.warmup, "ready_or_started", lambda name, chain, ready: True)
    assert opts.finish_in_background() is False
