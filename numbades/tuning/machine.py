"""What machine this is: the CPU facts tuning depends on, and how measurements describe it.

Saved choices depend on the machine they were measured on (:func:`fingerprint`);
:func:`has_avx512` is the host's vector width for reports (``auto``'s bitslice
threshold asks the bitslice engine for its compile target's width instead).
``opts`` prints each result in the shape of libdes's ``options.txt``:
``<OS> - <CPU> <MHz> - <toolchain> - <options>``, whose first three fields
come from here too, with a load figure for the notes.  Everything here is
best effort: a field that cannot be found is left out rather than guessed,
and nothing here imports the rest of the library.
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import subprocess
import sys
from pathlib import Path

_CPUINFO = Path("/proc/cpuinfo")
_CPUFREQ_MAX = Path("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")


def _cpuinfo_field(name: str) -> str | None:
    """First value of ``name`` in /proc/cpuinfo (Linux), or None."""
    try:
        text = _CPUINFO.read_text(errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() == name and value.strip():
            return value.strip()
    return None


def _sysctl(name: str) -> str | None:
    """``sysctl -n name`` on macOS / BSD, or None."""
    try:
        out = subprocess.run(
            ["sysctl", "-n", name], capture_output=True, text=True, timeout=2, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    value = out.stdout.strip()
    return value if out.returncode == 0 and value else None


def os_name() -> str:
    """Operating system and release, e.g. ``Linux 6.1`` (release cut to major.minor)."""
    system = platform.system() or sys.platform
    if system == "Darwin":
        release = platform.mac_ver()[0]
        system = "macOS"
    else:
        release = platform.release()
    release = ".".join(release.split("-")[0].split(".")[:2])
    return f"{system} {release}".strip()


def cpu_model() -> str:
    """CPU model name as the OS reports it, falling back to the architecture."""
    model = (
        _cpuinfo_field("model name")
        or _cpuinfo_field("Model")  # Raspberry Pi and other ARM boards
        or _cpuinfo_field("cpu")  # PowerPC
    )
    if model is None and sys.platform == "darwin":
        model = _sysctl("machdep.cpu.brand_string")
    if model is None:
        model = platform.processor() or platform.machine() or "unknown CPU"
    return " ".join(model.split())


def cpu_mhz() -> int | None:
    """Nominal clock in MHz where the OS tells it, else None.

    The cpufreq maximum is preferred over /proc/cpuinfo's ``cpu MHz``, which
    is the current (possibly throttled) clock of one core.
    """
    try:
        return round(int(_CPUFREQ_MAX.read_text().strip()) / 1000)
    except (OSError, ValueError):
        pass
    value = _cpuinfo_field("cpu MHz")
    if value is not None:
        try:
            return round(float(value))
        except ValueError:
            pass
    if sys.platform == "darwin":
        hz = _sysctl("hw.cpufrequency")
        if hz and hz.isdigit():
            return round(int(hz) / 1_000_000)
    return None


def cpu_count() -> int:
    """CPUs this process may run on (affinity-aware where the OS has it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def llvm_version() -> str | None:
    """LLVM version numba's llvmlite was built against, e.g. ``14.0.6``."""
    try:
        from llvmlite import binding
    except ImportError:  # pragma: no cover - numba always brings llvmlite
        return None
    return ".".join(str(part) for part in binding.llvm_version_info)


@functools.cache
def has_avx512() -> bool:
    """Whether LLVM sees AVX-512 (foundation) on this CPU: the bitslice kernels then use zmm."""
    from llvmlite import binding

    return "+avx512f" in binding.get_host_cpu_features().flatten().split(",")


def toolchain() -> str:
    """``Python x.y numba a.b LLVM c``: the libdes "compiler" field."""
    import numba

    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    parts = [f"Python {py}", f"numba {numba.__version__}"]
    llvm = llvm_version()
    if llvm:
        parts.append(f"LLVM {llvm}")
    return " ".join(parts)


def cpu_field() -> str:
    """CPU model followed by its MHz where known, e.g. ``AMD EPYC 2596mhz``."""
    mhz = cpu_mhz()
    return f"{cpu_model()} {mhz}MHz" if mhz else cpu_model()


def line_prefix() -> str:
    """``<OS> - <CPU> <MHz> - <toolchain>``, the part shared by every opts line."""
    return f"{os_name()} - {cpu_field()} - {toolchain()}"


def load_average() -> float | None:
    """One-minute load average, or None where the OS has none (Windows)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def fingerprint() -> str:
    """Short stable hash naming this machine: OS, architecture, CPU model, CPU count.

    Deliberately leaves out the clock (it moves with frequency scaling) and
    the toolchain (an upgrade does not make a file foreign; its version
    fields say what produced it).
    """
    ident = "|".join((platform.system(), platform.machine(), cpu_model(), str(os.cpu_count() or 1)))
    return hashlib.sha256(ident.encode()).hexdigest()[:16]


def describe() -> dict[str, object]:
    """Every field above as a JSON-ready dict (for ``opts --json``)."""
    return {
        "os": os_name(),
        "cpu_model": cpu_model(),
        "cpu_mhz": cpu_mhz(),
        "cpu_count": cpu_count(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "toolchain": toolchain(),
        "llvm": llvm_version(),
        "fingerprint": fingerprint(),
    }
