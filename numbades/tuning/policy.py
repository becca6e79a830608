"""The ``auto`` policy: which engine serves a piece of work, and every threshold it uses.

Work has a shape: a chain (``engines.chains``), a number of blocks and a
number of messages (one for a single stream).  *Independent-block* chains
(ECB, CTR, CBC and CFB decryption) can fill a bitslice pass from one
stream; *sequential* chains (CBC/CFB encryption, OFB, CFB-8) cannot, so a
single stream of them gets a table variant with the chaining inside the
kernel, while many messages fill a pass with block *j* of each message.

A request is what the caller asked for (:class:`Request`): an engine forced
with ``variant=``, ``auto``, or ``auto`` steered by ``NUMBADES_VARIANT``
(a preference: where that engine has no path, ``auto`` decides).
"""

from __future__ import annotations

import os
from typing import NamedTuple

from ..engines import chains
from ..engines.registry import (
    BITSLICE,
    CRYPT3_ENGINES,
    DEFAULT_TABLE_VARIANT,
    ENGINES,
    KEY_ROWS_ENGINES,
    variants,
)
from . import saved_choice, warmup

#: From this many blocks ``auto`` uses bitslice for independent blocks.  A bitslice
#: call costs a whole pass of 2048 blocks however short the input.  Measured
#: with ``benchmarks/crossover.py`` on one core (2026-12-03): with AVX-512
#: (Rocket Lake, 512-bit kernels) bitslice wins from 192 blocks (1.05x there,
#: 1.31x at 256, 4.1x at 1024); with AVX2 only (znver3) from 384 (1.2x there,
#: 0.9x at 256, 2.8x at 1024).  Re-measured after the fused transposes
#: (2026-12-06, one AVX-512 host, pinned to one core, two runs of each build):
#: the 512-bit build 1.02x at 192 and 1.18-1.24x at 256; an AVX2 build
#: (``NUMBA_CPU_FEATURES`` without AVX-512) 0.79-0.85x at 256 and 1.21-1.25x
#: at 384.  The rule asks the engine for the width its kernels were built for
#: (``vector_bits``, from the compile target, not the host), because the pass
#: that sets the cost is the one Numba built.  ``opts --save`` replaces it per
#: machine.
BITSLICE_THRESHOLD_BLOCKS = 256 if ENGINES[BITSLICE].vector_bits >= 512 else 384
#: ``auto`` runs sequential chains of many messages on bitslice from this many
#: messages up.  A pass costs about as much as 2048 blocks however few lanes
#: are filled, and a table variant runs roughly 20x slower per block, so
#: below ~100 messages the table engine is the better choice.
MANY_BITSLICE_MIN_MESSAGES = 128

#: A key array (``DESArray``, ``TripleDESArray``) of one-block rows goes to
#: bitslice, one key per lane, from this many rows (keys) up; below it a table
#: variant runs the rows one after another, each with its own key schedule.
#: Longer rows make each bitslice pass (a whole pass per block position, however
#: few keys) relatively dearer: from 2 blocks per row the threshold is
#: ``KEY_ROWS_BITSLICE_MIN_ROWS_LONG``.  Measured with
#: ``benchmarks/key_arrays_report.py`` (crossover section, one core, AVX2
#: znver3, shared machine, 2026-12-04, three runs): bitslice 0.91-0.99x at 64
#: one-block rows, 1.15-1.17x at 96; with 16-block rows 0.94-1.00x at 128,
#: 1.6-1.8x at 256.
KEY_ROWS_BITSLICE_MIN_ROWS = 64
KEY_ROWS_BITSLICE_MIN_ROWS_LONG = 128

ENV_VARIANT = "NUMBADES_VARIANT"


class Request(NamedTuple):
    """What a cipher object was asked to use."""

    name: str  # "auto" or an engine name
    forced: bool  # given as variant=...: refuse what that engine cannot run

    @property
    def label(self) -> str:
        """The engine name the cipher reports as its ``variant``."""
        return self.name


def resolve(variant: object) -> Request:
    """Validate a ``variant=`` argument; ``auto`` honours ``NUMBADES_VARIANT``.

    ``NUMBADES_VARIANT`` set but empty means unset; one that names no engine
    is a ``ValueError`` (a configuration mistake, reported when a cipher is made).
    """
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a str, not {type(variant).__name__}")
    if variant == "auto":
        env = os.environ.get(ENV_VARIANT) or "auto"
        if env != "auto" and env not in ENGINES:
            raise ValueError(f"{ENV_VARIANT}={env!r} is not one of {variants()}")
        return Request(env, forced=False)
    if variant not in ENGINES:
        raise ValueError(f"unknown variant {variant!r}; choose 'auto' or one of {variants()}")
    return Request(variant, forced=True)


def resolve_desx(variant: object) -> Request:
    """DESX's request: its whitening runs in the table engine's kernels only (the default loop).

    ``variant`` is ``"auto"`` or ``"table"`` (the same engine); ``NUMBADES_VARIANT``
    is not consulted.
    """
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a str, not {type(variant).__name__}")
    if variant not in ("auto", DEFAULT_TABLE_VARIANT):
        raise ValueError(f"DESX runs on the table engine's default loop: variant 'auto' or "
                         f"{DEFAULT_TABLE_VARIANT!r}, not {variant!r}")
    return Request(DEFAULT_TABLE_VARIANT, forced=False)


def check_serves(request: Request, chain: int) -> None:
    """``ValueError`` when a forced engine has no path for ``chain``."""
    if request.forced and not ENGINES[request.name].serves(chain):
        mode = chains.name(chain).split("-")[0]
        why = (" (one cipher call per byte)" if chain in chains.CFB8 else
               " (one cipher call per bit)" if chain in chains.CFB1 else
               " (each block needs the one before)" if chain in chains.PCBC else "")
        raise ValueError(
            f"{mode} has no {request.name} path{why}; use a table variant or 'auto'"
        )


def pick(request: Request, chain: int, blocks: int, messages: int = 1, *,
         sequential: bool = False) -> str:
    """The engine name that serves ``blocks`` blocks of ``chain`` over ``messages`` messages.

    A forced engine always serves (``check_serves`` has vetted it).  Else an
    engine named by ``NUMBADES_VARIANT`` serves where it can.  Else, for one
    stream, the choice ``opts --save`` measured for this message size where
    the work allows it, then ``BITSLICE_THRESHOLD_BLOCKS``; for many messages
    of a chain, ``MANY_BITSLICE_MIN_MESSAGES``.  ``sequential=True`` treats
    even an independent chain as one step at a time (a single keystream
    block), which never goes to bitslice under ``auto``.
    """
    if request.forced:
        return request.name
    if request.name != "auto":
        return request.name if ENGINES[request.name].serves(chain) else DEFAULT_TABLE_VARIANT
    independent = chain in chains.INDEPENDENT and not sequential
    if messages > 1 and chain not in chains.ECB:  # block j of many messages per pass
        if messages >= MANY_BITSLICE_MIN_MESSAGES:
            return _ready(BITSLICE, chain)
        return DEFAULT_TABLE_VARIANT
    saved = saved_choice.choice_for_bytes(8 * blocks)
    if saved is not None and (independent or saved != BITSLICE):
        return _ready(saved, chain)
    if independent and blocks >= BITSLICE_THRESHOLD_BLOCKS:
        return _ready(BITSLICE, chain)
    return DEFAULT_TABLE_VARIANT


def _ready(name: str, chain: int) -> str:
    """``name`` if it can serve now, else the default table variant while it compiles aside."""
    group = getattr(ENGINES[name], "compile_group_of", None)
    first = group(chain) if group is not None else None
    return name if warmup.ready_or_started(name, chain, first=first) else DEFAULT_TABLE_VARIANT


def check_serves_key_rows(request: Request, chain: int) -> None:
    """``ValueError`` when a forced engine cannot run ``chain`` with a key per row."""
    engine = KEY_ROWS_ENGINES.get(request.name)
    if request.forced and (engine is None or not engine.serves_key_rows(chain)):
        mode = chains.name(chain).split("-")[0]
        raise ValueError(f"{mode} has no {request.name} path for key arrays")


def pick_key_rows(request: Request, chain: int, rows: int, blocks: int = 1) -> str:
    """The engine that runs ``rows`` messages of ``blocks`` blocks of ``chain``, message i under key i.

    A forced engine serves (vetted by ``check_serves_key_rows``); one named
    by ``NUMBADES_VARIANT`` serves where it can; else bitslice from
    ``KEY_ROWS_BITSLICE_MIN_ROWS`` rows up (``..._LONG`` for rows of more
    than one block), below that the default table variant.
    """
    if request.forced:
        return request.name
    if request.name != "auto":
        engine = KEY_ROWS_ENGINES.get(request.name)
        if engine is not None and engine.serves_key_rows(chain):
            return request.name
    least = KEY_ROWS_BITSLICE_MIN_ROWS if blocks <= 1 else KEY_ROWS_BITSLICE_MIN_ROWS_LONG
    if rows >= least and BITSLICE in KEY_ROWS_ENGINES:
        ready = getattr(KEY_ROWS_ENGINES[BITSLICE], "key_rows_ready", None)
        if warmup.ready_or_started(BITSLICE, chain, ready, first="key rows"):
            return BITSLICE
    return DEFAULT_TABLE_VARIANT


#: ``crypt_many`` runs on bitslice (2048 hashes a pass, each with its own salt) from this
#: many hashes of one count and salt width up; below it the default table variant computes
#: them one after another (``engines/table/crypt3.py``), as it does while bitslice is not
#: compiled.  A pass costs about as much as 2048 hashes however few lanes are filled.
#: Measured with ``benchmarks/crypt3_small.py`` (crossover section; AVX-512 Xeon shared
#: by other jobs, 2026-12-07, best of 30 alternating rounds, 25 iterations, two runs):
#: bitslice 0.43-0.64x the table engine at 32 hashes, 1.07-1.28x at 64, 2.2-2.5x at 128,
#: 4.3-5.0x at 256.
CRYPT3_BITSLICE_MIN_ROWS = 64


#: ``NUMBADES_VARIANT`` as crypt(3) reads it: once per process (reading the environment
#: costs a microsecond when the variable is unset, a fifth of one hash).
_crypt3_preference: list[str | None] = []


def forget_crypt3_preference() -> None:
    """Read ``NUMBADES_VARIANT`` again at the next crypt(3) call (tests)."""
    _crypt3_preference.clear()


def pick_crypt3(rows: int) -> str:
    """The engine for ``rows`` crypt(3) hashes of one count: bitslice for many, once compiled.

    An engine named by ``NUMBADES_VARIANT`` (read at the first crypt(3)
    call of the process) serves every crypt(3) call (``bitslice``: constant
    time, compiled on demand); a value that names no engine is left to the
    cipher objects to report.  Else, below ``CRYPT3_BITSLICE_MIN_ROWS``, or
    while the bitslice kernels are not compiled (compiling them in the
    background, as for the other calls), the default table variant.
    """
    if not _crypt3_preference:
        _crypt3_preference.append(os.environ.get(ENV_VARIANT))
    preferred = _crypt3_preference[0]
    if preferred in CRYPT3_ENGINES:
        return preferred
    if rows >= CRYPT3_BITSLICE_MIN_ROWS and BITSLICE in CRYPT3_ENGINES:
        ready = getattr(CRYPT3_ENGINES[BITSLICE], "crypt3_ready", None)
        if warmup.ready_or_started(BITSLICE, chains.ECB_ENCRYPT, ready, first="crypt3"):
            return BITSLICE
    return DEFAULT_TABLE_VARIANT


def cbc_mac_kernel_serves(request: Request, rows: int, key_rows: bool = False) -> bool:
    """Whether ``numbades.mac``'s bitslice CBC-MAC kernel takes ``rows`` messages now.

    Under one key from ``MANY_BITSLICE_MIN_MESSAGES`` messages, with a key per
    row from ``KEY_ROWS_BITSLICE_MIN_ROWS`` rows, when the request is ``auto``
    or bitslice.  A forced ``variant="bitslice"`` or ``NUMBADES_VARIANT=bitslice``
    compiles on demand; ``auto`` asks whether the kernels are ready and, while
    they are not, says no and starts (or joins) the one background compile:
    the caller then runs CBC on the path that is ready (``encrypt_many``, a
    key array), with the same results.
    """
    least = KEY_ROWS_BITSLICE_MIN_ROWS if key_rows else MANY_BITSLICE_MIN_MESSAGES
    if request.name not in ("auto", BITSLICE) or rows < least:
        return False
    if request.name == BITSLICE:
        return True
    ready = getattr(ENGINES[BITSLICE], "cbc_mac_ready", None)
    return warmup.ready_or_started(BITSLICE, chains.CBC_ENCRYPT, ready, first="cbc-mac")
