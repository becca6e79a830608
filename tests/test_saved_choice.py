"""The --save store: round trip, platform cache locations, and bad files.

A saved-choice file that is damaged, from another machine, from another
numbades version or names an engine this library lacks must be ignored with a
warning -- ``auto`` then falls back to its defaults -- and never raise.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from numbades.tuning import machine as _machine
from numbades.tuning import saved_choice as _saved_choice
from numbades.tuning.saved_choice import SavedChoiceWarning, load_saved_choice, save_choices


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own empty cache directory and a fresh in-process copy."""
    monkeypatch.setenv(_saved_choice.ENV_DIR, str(tmp_path))
    _saved_choice.forget_loaded()
    yield tmp_path
    _saved_choice.forget_loaded()


def _an_engine() -> str:
    import numbades

    return numbades.variants()[0]


def _rewrite(path: Path, **changes: object) -> None:
    doc = json.loads(path.read_text())
    doc.update(changes)
    path.write_text(json.dumps(doc))
    _saved_choice.forget_loaded()


def test_round_trip(cache_dir: Path) -> None:
    engine = _an_engine()
    path = save_choices({"small": engine, "large": engine})
    assert path == cache_dir / _saved_choice.FILE_NAME
    assert load_saved_choice("small") == engine
    assert load_saved_choice("large") == engine
    assert load_saved_choice("medium") is None
    assert not list(cache_dir.glob(".choices-*")), "temporary file left behind"


def test_file_records_machine_and_versions(cache_dir: Path) -> None:
    doc = json.loads(save_choices({"small": _an_engine()}).read_text())
    assert doc["format"] == _saved_choice.FORMAT
    assert doc["format_version"] == _saved_choice.FORMAT_VERSION
    assert doc["machine"] == _machine.fingerprint()
    assert "numbades_version" in doc


def test_missing_file_is_silent(recwarn: pytest.WarningsRecorder) -> None:
    assert load_saved_choice("small") is None
    assert not [w for w in recwarn if issubclass(w.category, SavedChoiceWarning)]


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"\xff\xfe\x00garbage", b"[1, 2, 3]", b'{"format": "something-else"}', b""],
    ids=["bad-json", "binary", "json-list", "foreign-format", "empty"],
)
def test_corrupt_file_warns_and_is_ignored(cache_dir: Path, content: bytes) -> None:
    (cache_dir / _saved_choice.FILE_NAME).write_bytes(content)
    with pytest.warns(SavedChoiceWarning):
        assert load_saved_choice("small") is None


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("machine", "0000000000000000", "another machine"),
        ("numbades_version", "0.0.0-elsewhere", "saved by numbades"),
        ("format_version", 999, "format version"),
        ("choices", {"small": 42}, "malformed"),
        ("choices", {"tiny": "table"}, "malformed"),
        ("choices", ["table"], "malformed"),
    ],
)
def test_foreign_or_stale_file_warns_and_is_ignored(field: str, value: object, reason: str) -> None:
    path = save_choices({"small": _an_engine()})
    _rewrite(path, **{field: value})
    with pytest.warns(SavedChoiceWarning, match=reason):
        assert load_saved_choice("small") is None


def test_unknown_engine_warns_and_is_ignored() -> None:
    path = save_choices({"small": "table+no-such-option"})
    _saved_choice.forget_loaded()
    assert path.exists()
    with pytest.warns(SavedChoiceWarning, match="not one of"):
        assert load_saved_choice("small") is None


def test_save_rejects_unknown_size_class() -> None:
    with pytest.raises(ValueError, match="size classes"):
        save_choices({"huge": _an_engine()})


def test_save_replaces_previous_file() -> None:
    import numbades

    first, last = numbades.variants()[0], numbades.variants()[-1]
    save_choices({"small": first})
    assert load_saved_choice("small") == first
    save_choices({"small": last})
    assert load_saved_choice("small") == last


@pytest.mark.parametrize(
    ("nbytes", "expected"),
    [
        (0, "small"),
        (4095, "small"),
        (4096, "medium"),
        (1024 * 1024 - 1, "medium"),
        (1024 * 1024, "large"),
        (1 << 30, "large"),
    ],
)
def test_size_classes(nbytes: int, expected: str) -> None:
    assert _saved_choice.size_class(nbytes) == expected
    assert expected in _saved_choice.SIZE_CLASSES


def test_representative_sizes_fall_in_their_class() -> None:
    for cls, nbytes in _saved_choice.REPRESENTATIVE_SIZES.items():
        assert _saved_choice.size_class(nbytes) == cls


class TestCacheLocation:
    """The platform user-cache convention, with NUMBADES_CACHE_DIR unset."""

    @pytest.fixture(autouse=True)
    def _no_override(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.delenv(_saved_choice.ENV_DIR, raising=False)
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        monkeypatch.setenv("USERPROFILE", str(tmp_path / "home"))

    def test_linux_xdg(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.setattr(sys, "platform", "linux")
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert _saved_choice.user_cache_dir() == tmp_path / "xdg" / "numbades"

    def test_linux_default_and_relative_xdg_ignored(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        monkeypatch.setattr(sys, "platform", "linux")
        monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")
        assert _saved_choice.user_cache_dir() == Path.home() / ".cache" / "numbades"

    def test_macos(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "platform", "darwin")
        assert _saved_choice.user_cache_dir() == Path.home() / "Library" / "Caches" / "numbades"

    def test_windows(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.setattr(sys, "platform", "win32")
        monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "local"))
        assert _saved_choice.user_cache_dir() == tmp_path / "local" / "numbades" / "Cache"

    def test_override_wins(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.setenv(_saved_choice.ENV_DIR, str(tmp_path / "mine"))
        assert _saved_choice.choice_path() == tmp_path / "mine" / _saved_choice.FILE_NAME
