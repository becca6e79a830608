"""What the measuring commands tell their user, checked without compiling anything:
progress lines and heartbeats, the ``opts`` header, whose kernel cache was
filled, and why a ``speed --compare`` peer is missing."""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

from numbades.cli import compile as compile_cmd
from numbades.cli import opts, peers, speed
from numbades.cli.measure import Progress


def _progress(every: float) -> tuple[Progress, io.StringIO]:
    stream = io.StringIO()  # not a terminal: a line per update
    return Progress(stream, every=every), stream


def test_progress_writes_a_line_per_update_when_not_a_terminal() -> None:
    progress, stream = _progress(60)
    progress.update("opts: compiling 3 engines", "[1] bitslice")
    progress.update("opts: compiling 3 engines", "[1] bitslice")  # unchanged: no new line
    progress.update("opts: compiling 3 engines", "[2] table")
    assert stream.getvalue().splitlines() == [
        "opts: compiling 3 engines [1] bitslice", "opts: compiling 3 engines [2] table"]


def test_heartbeat_speaks_during_silence_and_stops_with_its_block() -> None:
    progress, stream = _progress(0.1)
    progress.update("opts: compiling 3 engines", "[1] bitslice")
    with progress.heartbeat():
        time.sleep(0.5)
        with progress.heartbeat(lambda: "compiling bitslice"):  # the innermost one speaks
            progress.update("opts: compiling engines", "[1/3] table 0.2 s")
            time.sleep(0.5)
    lines = stream.getvalue().splitlines()
    assert lines[1].startswith("opts: still compiling 3 engines [1] bitslice (")
    assert "opts: compiling engines [1/3] table 0.2 s" in lines
    inner = lines[lines.index("opts: compiling engines [1/3] table 0.2 s") + 1:]
    assert inner and all(ln.startswith("opts: still compiling bitslice (") for ln in inner)
    assert all(ln.endswith(" s)") for ln in lines if "still" in ln)
    written = stream.getvalue()
    time.sleep(0.3)
    assert stream.getvalue() == written  # the thread ended with the block


def test_heartbeat_is_silent_when_progress_is_off() -> None:
    stream = io.StringIO()
    progress = Progress(stream, enabled=False, every=0.05)
    with progress.heartbeat():
        time.sleep(0.2)
    assert stream.getvalue() == ""


def test_opts_table_starts_with_a_header_naming_its_columns() -> None:
    results = [opts.Result("table+unroll", 1024, [1_234_567.0]), opts.Result("table", 1024, [9.0])]
    lines = opts.format_lines("Linux - CPU - Python 3.11 numba 0.60", results, {"table": [2]})
    assert lines[0].split("   ")[0].rstrip() == "machine - libdes options of the engine [notes]"
    assert lines[1:] == [
        "Linux - CPU - Python 3.11 numba 0.60 - UNROLL       1,234,567      9877k/s",
        "Linux - CPU - Python 3.11 numba 0.60 - [2]                  9         0k/s",
    ]
    # the header's figure columns end where the figures do
    assert lines[0].index("DES blocks/s") + len("DES blocks/s") == lines[1].index("1,234,567") + 9
    assert len(lines[0]) == len(lines[1])


def test_cache_note_when_a_checkout_shadows_the_installed_package(tmp_path: Path) -> None:
    checkout = tmp_path / "clone" / "numbades" / "__init__.py"
    installed = tmp_path / "site-packages" / "numbades" / "__init__.py"
    for init in (checkout, installed):
        init.parent.mkdir(parents=True)
        init.write_text("")
    note = compile_cmd.other_copy_note(checkout, installed)
    assert note is not None
    assert str(checkout.parent) in note and str(installed.parent) in note
    assert "another directory" in note
    assert compile_cmd.other_copy_note(installed, installed) is None
    assert compile_cmd.other_copy_note(checkout, None) is None  # not installed, or editable


def test_cache_location_names_numba_cache_dir(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert compile_cmd.cache_location() == str(tmp_path.resolve())
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    package = Path(compile_cmd.__file__).resolve().parents[1]
    assert compile_cmd.cache_location() == str(package / "**" / "__pycache__")


def test_missing_pycryptodome_is_named_with_how_to_install_it(monkeypatch) -> None:
    assert "pycryptodome" not in peers.missing()  # installed in the test environment
    monkeypatch.setitem(sys.modules, "Crypto", None)  # import Crypto... now raises ImportError
    monkeypatch.setitem(sys.modules, "Crypto.Cipher", None)
    assert peers.missing()["pycryptodome"] == (
        "pycryptodome not installed: pip install numbades[bench]")
    assert peers.pycryptodome_call("des-ecb", 16) is None


def test_speed_compare_says_why_a_peer_is_missing_instead_of_na() -> None:
    sizes = (16,)
    m = speed.Measurements(sizes, {lib: {} for lib in speed.LIBRARIES})
    for cipher in speed.CIPHERS:
        m.rates["numbades"][cipher] = {16: 8e6}
        m.rates["openssl"][cipher] = {16: 4e6}
    m.small = {"DES-ECB 8 B": {"numbades": 1e6, "pycryptodome": None}}
    m.missing = {"pycryptodome": peers.MISSING["pycryptodome"]}
    args = argparse.Namespace(variant="auto", compare=True)
    out = io.StringIO()
    speed.render_text(m, args, out)
    text = out.getvalue()
    assert ("Not compared with pycryptodome: pycryptodome not installed: "
            "pip install numbades[bench]") in text
    assert "Ratio numbades / pycryptodome: not measured (pycryptodome not installed" in text
    assert "Ratio numbades / openssl (above 1: numbades is faster)." in text
    assert "n/a" not in text
    assert not any(line.startswith("pycryptodome des-") for line in text.splitlines())


def test_installed_package_is_found_past_the_checkouts_own_egg_info(monkeypatch,
                                                                   tmp_path: Path) -> None:
    """``pip install .`` leaves ``numbades.egg-info`` in the checkout, which metadata finds
    first when the checkout is the current directory: the installed copy must still be
    found (the README's first command runs from the checkout)."""
    clone, site = tmp_path / "clone", tmp_path / "site-packages"
    for root in (clone, site):
        (root / "numbades").mkdir(parents=True)
        (root / "numbades" / "__init__.py").write_text("")
    (clone / "numbades.egg-info").mkdir()
    (clone / "numbades.egg-info" / "PKG-INFO").write_text("Name: numbades\nVersion: 0.1.0\n")
    (site / "numbades-0.1.0.dist-info").mkdir()
    (site / "numbades-0.1.0.dist-info" / "METADATA").write_text(
        "Name: numbades\nVersion: 0.1.0\n")
    monkeypatch.setattr(sys, "path", [str(clone), str(site)])
    monkeypatch.setattr(compile_cmd, "_PACKAGE_INIT", clone / "numbades" / "__init__.py")
    assert compile_cmd.installed_package() == site / "numbades" / "__init__.py"
    assert "another directory" in compile_cmd.cache_note()
    monkeypatch.setattr(sys, "path", [str(clone)])  # only the checkout: nothing else installed
    assert compile_cmd.installed_package() is None
