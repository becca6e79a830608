"""Which engines compiled to identical machine code (a note of ``numbades opts``).

libdes's options could compile to the same instructions on a given CPU and
compiler; ``opts`` says so, as ``options.txt``'s readers would want to know.
The ECB kernels' assembly is normalised (comments, debug directives and the
kernels' own names removed) and compared.
"""

from __future__ import annotations

import hashlib
import json
import re
import warnings
from collections.abc import Sequence
from pathlib import Path

from ..tuning import machine
from .measure import Progress

_ASM_COMMENT = re.compile(r"\s*(#|//|;).*$")
_MANGLED = re.compile(r"_ZN[\w$.]+|\.L(func_end|tmp|_MergedGlobals)\w*")
_SKIPPED_DIRECTIVES = (".file", ".ident", ".loc", ".size", ".section\t.note", ".section .note")


def normalise_asm(text: str, names: Sequence[str]) -> str:
    """Assembly with comments, debug directives and the kernel's own names removed.

    Two kernels whose normalised text is equal compiled to the same machine code.
    """
    lines = []
    for raw in text.splitlines():
        line = _ASM_COMMENT.sub("", raw).rstrip()
        if not line.strip() or line.strip().startswith(_SKIPPED_DIRECTIVES):
            continue
        line = _MANGLED.sub("SYM", line)
        for name in names:
            if name:
                line = line.replace(name, "FUNC")
        lines.append(line)
    return "\n".join(lines)


def kernel_asm(kernel: object, copy: bool = True) -> dict:
    """``inspect_asm()`` of a compiled dispatcher, by signature.

    Numba disables inspection of code loaded from its on-disk cache (it warns
    and returns a stub), so such a kernel is compiled again as an uncached copy
    for the same signatures, and the copy is inspected (``copy=False``: an
    empty answer instead).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asm = kernel.inspect_asm()
    if asm and not any("disabled for cached code" in str(w.message) for w in caught):
        return asm
    if not copy:
        return {}
    import numba

    options = {k: v for k, v in getattr(kernel, "targetoptions", {}).items() if k != "cache"}
    options.pop("nopython", None)  # implied by njit, which warns if it is given
    copy = numba.njit(**options)(kernel.py_func)
    for sig in kernel.signatures:
        copy.compile(sig)
    return copy.inspect_asm()


def _kernel_names(kernel: object) -> list[str]:
    py_func = kernel.py_func
    names = {py_func.__qualname__, py_func.__name__}
    return sorted(names - {""}, key=len, reverse=True)


def code_key(kernels: dict[str, object]) -> str:
    """Hash of everything that decides the machine code.

    The toolchain, the CPU, the signatures compiled, and the full text of
    each kernel's module, which carries the hash of every module the kernels
    inline (``_INLINED_SOURCES_SHA256``): a change to a helper they inline
    changes the key as surely as a change to the kernels themselves.
    """
    from llvmlite import binding

    parts = [machine.toolchain(), binding.get_host_cpu_name(), binding.get_host_cpu_features()]
    for name, kernel in sorted(kernels.items()):
        source_file = Path(kernel.py_func.__code__.co_filename)
        try:
            text = source_file.read_text()
        except OSError:
            text = repr(kernel.py_func)
        parts += [name, kernel.py_func.__name__, text, repr(sorted(map(str, kernel.signatures)))]
    return hashlib.sha256("\x00".join(map(str, parts)).encode()).hexdigest()


def code_digest(kernel: object, copy: bool = True) -> str | None:
    """SHA-256 of ``kernel``'s normalised assembly (every signature); None if unreadable.

    Cheap in the process that compiled the kernel; for one loaded from the
    cache it compiles an uncached copy (:func:`kernel_asm`), or with
    ``copy=False`` answers None.
    """
    try:
        asm = kernel_asm(kernel, copy)
    except Exception:  # noqa: BLE001 - inspection is a note, never a failure
        return None
    if not asm:
        return None
    names = _kernel_names(kernel)
    text = "\n".join(normalise_asm(asm[sig], names) for sig in sorted(asm, key=str))
    return hashlib.sha256(text.encode()).hexdigest()


def identical_code_groups(
    kernels: dict[str, object], memo: Path, progress: Progress | None = None,
    digests: dict[str, str | None] | None = None,
) -> list[list[str]] | None:
    """Groups (two or more) of engine names whose ECB kernels compiled identically.

    ``kernels`` maps an engine name to its compiled ECB dispatcher (call this
    after the warm-up).  ``digests``: :func:`code_digest` of the same kernels,
    taken where they were compiled (``opts``'s compiling processes), so that
    none is compiled again here; a missing or None one is taken here.  The
    answer is remembered in the JSON file ``memo``, keyed on :func:`code_key`,
    because finding it may mean compiling every kernel again (see
    :func:`kernel_asm`).  None when any kernel's assembly could not be read:
    then nothing is claimed either way.
    """
    compiled = {n: k for n, k in kernels.items() if getattr(k, "signatures", None)}
    if len(compiled) < len(kernels):
        return None
    key = code_key(compiled)
    try:
        saved = json.loads(memo.read_text())
        if saved.get("key") == key:
            return saved["groups"]
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        pass
    by_code: dict[str, list[str]] = {}
    for i, (name, kernel) in enumerate(compiled.items(), 1):
        digest = (digests or {}).get(name)
        if digest is None:
            if progress is not None:
                progress.update("opts: comparing machine code", f"[{i}/{len(compiled)}] {name}")
            digest = code_digest(kernel)
        if digest is None:
            return None
        by_code.setdefault(digest, []).append(name)
    groups = [group for group in by_code.values() if len(group) > 1]
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        memo.write_text(json.dumps({"key": key, "groups": groups}))
    except OSError:
        pass
    return groups
