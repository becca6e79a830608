"""Measured engine choices saved by ``numbades opts --save``.

``auto`` picks an engine per call by message size.  Out of the box it uses
built-in defaults; after ``opts --save`` it uses the fastest engine measured
on this machine for each size class.  The choices live in one small JSON file
in the platform's user cache directory (``NUMBADES_CACHE_DIR`` overrides it),
stamped with a format version, the numbades version and a machine
fingerprint, so a file copied from another machine, left by another numbades
version, or damaged on disk is ignored with a warning instead of steering
``auto`` wrong -- it never raises.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
import time
import warnings
from pathlib import Path

from ..engines.registry import ENGINES
from . import machine

FORMAT = "numbades-saved-choice"
FORMAT_VERSION = 1
FILE_NAME = "choices.json"
#: The largest file read as saved choices (a real one is about 1 KiB).
MAX_FILE_BYTES = 64 * 1024
ENV_DIR = "NUMBADES_CACHE_DIR"

# Size classes by message length: "small" < 4 KiB <= "medium" < 1 MiB <= "large".
SIZE_CLASSES: tuple[str, ...] = ("small", "medium", "large")
SIZE_CLASS_LIMITS: tuple[int, ...] = (4 * 1024, 1024 * 1024)
# The message size ``opts --save`` measures to stand for each class.
REPRESENTATIVE_SIZES: dict[str, int] = {"small": 1024, "medium": 64 * 1024, "large": 1024 * 1024}

# Parsed file per path, so ``auto`` reads the disk once per process, not per call.
_loaded: dict[str, dict[str, str]] = {}


class SavedChoiceWarning(UserWarning):
    """A saved-choice file exists but cannot be used (corrupt, foreign, stale)."""


def size_class(nbytes: int) -> str:
    """Size class of a message of ``nbytes`` bytes."""
    if nbytes < SIZE_CLASS_LIMITS[0]:
        return SIZE_CLASSES[0]
    return SIZE_CLASSES[1] if nbytes < SIZE_CLASS_LIMITS[1] else SIZE_CLASSES[2]


def user_cache_dir() -> Path:
    """numbades's directory under the platform's user-cache convention.

    Windows: ``%LOCALAPPDATA%\\numbades\\Cache``; macOS: ``~/Library/Caches/numbades``;
    elsewhere ``$XDG_CACHE_HOME/numbades`` (default ``~/.cache/numbades``).
    """
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    home = Path.home()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return Path(base) / "numbades" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "numbades"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base_dir = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".cache"
    return base_dir / "numbades"


def choice_path() -> Path:
    """Where the saved choices are (or would be) stored."""
    return user_cache_dir() / FILE_NAME


_paths: dict[str | None, str] = {}


def _path_for_environment() -> str:
    """``choice_path()`` as a string, memoised per ``NUMBADES_CACHE_DIR`` value.

    Building the path with pathlib costs more than encrypting a short
    message.  The platform variables behind the default location
    (``XDG_CACHE_HOME``, ``HOME``, ...) are read once; ``forget_loaded()``
    re-reads them.
    """
    override = os.environ.get(ENV_DIR)
    path = _paths.get(override)
    if path is None:
        path = _paths[override] = str(choice_path())
    return path


def _numbades_version() -> str:
    """Installed numbades version, read from package metadata (no library import)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("numbades")
    except PackageNotFoundError:
        return "unknown"


def save_problem() -> str | None:
    """Why :func:`save_choices` could not write its file here, or None if it can.

    Checked before ``opts --save`` spends a minute measuring: the cache
    directory is made if missing (as saving would), and must be a writable
    directory, and the file's own path must not be a directory.
    """
    path = choice_path()
    if path.parent.exists() and not path.parent.is_dir():
        return f"{path.parent} is not a directory"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot make the directory {path.parent} ({exc.strerror or exc})"
    if not os.access(path.parent, os.W_OK | os.X_OK):
        return f"the directory {path.parent} is not writable"
    if path.is_dir():
        return f"{path} is a directory"
    return None


def save_choices(mapping: dict[str, str], details: dict[str, object] | None = None) -> Path:
    """Record ``{size class: engine name}`` for this machine; return the file written.

    ``details`` (measured rates, settings) is stored alongside for people
    reading the file; ``auto`` looks only at the choices.  The file is
    replaced atomically so a reader never sees half of it.
    """
    unknown = set(mapping) - set(SIZE_CLASSES)
    if unknown:
        raise ValueError(f"unknown size classes {sorted(unknown)}; expected {SIZE_CLASSES}")
    if not all(isinstance(v, str) and v for v in mapping.values()):
        raise TypeError("engine names must be non-empty strings")
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "numbades_version": _numbades_version(),
        "machine": machine.fingerprint(),
        "machine_description": machine.line_prefix(),
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "choices": dict(mapping),
        "details": details or {},
    }
    path = choice_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".choices-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(document, fh, indent=2, sort_keys=True)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    forget_loaded()  # the next lookup reads what was just written
    return path


def _reject(path: Path, why: str) -> dict[str, str]:
    warnings.warn(
        f"ignoring saved engine choices in {path}: {why}; "
        "auto uses its built-in defaults (re-run `numbades opts --save`)",
        SavedChoiceWarning,
        stacklevel=4,
    )
    return {}


class _Unusable(Exception):
    """Why a saved-choice file cannot be used (turned into one warning)."""


def _read_bounded(path: Path) -> str | None:
    """The text of ``path`` if it is a regular file of at most ``MAX_FILE_BYTES``.

    None when there is no file.  Raises ``_Unusable`` for anything else: a
    FIFO, device or directory (reading one could block or never end), a
    file too large to be ours, unreadable or undecodable bytes.  The file is
    opened non-blocking and checked again on the open descriptor, so a file
    swapped for a FIFO between the two looks cannot make ``auto`` hang.
    """
    try:
        before = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _Unusable(f"cannot read it ({exc})") from None
    if not stat.S_ISREG(before.st_mode):
        raise _Unusable("it is not a regular file")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise _Unusable(f"cannot read it ({exc})") from None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _Unusable("it is not a regular file")
        data = fh.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _Unusable(f"it is larger than {MAX_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _Unusable("it is not UTF-8 text") from None


def _read(path: Path) -> dict[str, str]:
    """The usable choices in ``path``: {} when absent, {} plus a warning when unusable.

    Never raises and never blocks: whatever is at ``path`` (a FIFO, a huge
    file, JSON nested deep enough to exhaust the parser's recursion), the
    worst outcome is one warning and the built-in defaults.
    """
    try:
        raw = _read_bounded(path)
    except _Unusable as exc:
        return _reject(path, str(exc))
    except Exception as exc:  # noqa: BLE001 - the store must never break a cipher call
        return _reject(path, f"cannot read it ({type(exc).__name__})")
    if raw is None:
        return {}
    try:
        doc = json.loads(raw)
    except Exception as exc:  # noqa: BLE001 - RecursionError, MemoryError from a hostile file
        return _reject(path, f"it is not valid JSON ({type(exc).__name__})")
    try:
        return _choices_in(path, doc)
    except Exception as exc:  # noqa: BLE001 - never raise, whatever the document holds
        return _reject(path, f"its content is malformed ({type(exc).__name__})")


def _choices_in(path: Path, doc: object) -> dict[str, str]:
    """The choices of a parsed document, or {} plus a warning when it is not ours."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return _reject(path, "it is not a numbades saved-choice file")
    if doc.get("format_version") != FORMAT_VERSION:
        return _reject(
            path, f"format version {doc.get('format_version')!r} is not {FORMAT_VERSION}"
        )
    if doc.get("machine") != machine.fingerprint():
        return _reject(path, "it was measured on another machine")
    if doc.get("numbades_version") != _numbades_version():
        return _reject(path, f"it was saved by numbades {doc.get('numbades_version')!r}")
    choices = doc.get("choices")
    if not isinstance(choices, dict) or not all(
        k in SIZE_CLASSES and isinstance(v, str) for k, v in choices.items()
    ):
        return _reject(path, "its choices are malformed")
    return dict(choices)


# The choices in force, read once per process (``forget_loaded`` re-reads).
_in_force: dict[str, str] | None = None


def _read_in_force() -> dict[str, str]:
    """The validated choices of the file ``NUMBADES_CACHE_DIR`` points at now."""
    global _in_force
    key = _path_for_environment()
    if key not in _loaded:
        choices = _read(Path(key))
        unknown = sorted(v for v in choices.values() if v not in ENGINES)
        if unknown:
            choices = _reject(Path(key), f"engine {unknown[0]!r} is not one of this library's")
        _loaded[key] = choices
    _in_force = _loaded[key]
    return _in_force


def load_saved_choice(size_class: str) -> str | None:
    """Saved engine for ``size_class`` on this machine, or None to use the default.

    Never raises on a bad file: it warns (:class:`SavedChoiceWarning`) once
    per process and returns None.  A saved engine this library no longer has
    is treated the same way.  The file (and ``NUMBADES_CACHE_DIR``) is read
    on the first lookup of the process; :func:`forget_loaded` makes the next
    lookup read them again.
    """
    choices = _in_force if _in_force is not None else _read_in_force()
    return choices.get(size_class) if choices else None


def choice_for_bytes(nbytes: int) -> str | None:
    """:func:`load_saved_choice` for a message of ``nbytes``: ``auto``'s per-call question.

    With no saved file (the usual case) this is one test.
    """
    choices = _in_force if _in_force is not None else _read_in_force()
    if not choices:
        return None
    return choices.get(size_class(nbytes))


def forget_loaded() -> None:
    """Drop the in-process copy so the next lookup re-reads the file (tests, --save)."""
    global _in_force
    _loaded.clear()
    _paths.clear()
    _in_force = None
