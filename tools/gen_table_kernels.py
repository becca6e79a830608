"""Generate ``numbades/engines/table/kernels_gen.py``: libdes's twelve inner-loop variants.

libdes chose its inner loop at compile time with four macros; numbades makes
each combination a separate njit kernel, written out as source so that every
variant is visible, greppable and cacheable (Numba caches functions that live
in a real file).  This generator is the single place their structure is
described:

* ``D_ENCRYPT`` bodies, one per (RISC option, PTR option): the order in which
  the eight table indices are extracted from ``u = R ^ Ku`` and
  ``t = rotr(R ^ Kt, 4)``, and whether tables are read by array index or by
  byte offset from the flat table (``ptr_load.load_u32_at_byte``).
* The round structure: a loop doing 4 rounds per iteration with the key index
  stepping by 8 words (default), or all 16 rounds written out (UNROLL).

Run ``python -m tools.gen_table_kernels`` after changing it; a test checks
that the committed module is what this script generates.
"""

from __future__ import annotations

import itertools
import re

from tools import generated, stamp_kernel_sources

chains = stamp_kernel_sources.load_standalone("engines.chains")

TARGET = generated.TABLE_KERNELS
#: Module name (relative to the package) the stamp of the generated file is computed for.
MODULE = "engines.table.kernels_gen"

ROT4 = "{t} = (({t} >> 4) | ({t} << 28)) & 0xFFFFFFFF"
ROT6 = "{t} = (({t} >> 6) | ({t} << 26)) & 0xFFFFFFFF"


def variant_name(unroll: bool, risc: int, ptr: bool) -> str:
    parts = ["table"]
    if unroll:
        parts.append("unroll")
    if risc:
        parts.append(f"risc{risc}")
    if ptr:
        parts.append("ptr")
    return "+".join(parts)


def all_variants() -> list[tuple[bool, int, bool]]:
    return [(u, r, p) for u, r, p in itertools.product((False, True), (0, 1, 2), (False, True))]


def _load(ptr: bool, slot: int, idx: str) -> str:
    """Read table ``slot`` at ``idx`` (an index, or a byte offset when PTR)."""
    if ptr:
        base = f"0x{0x100 * slot:03X} + " if slot else ""
        return f"load_u32_at_byte(sp, {base}({idx}))" if base and not idx.isidentifier() else f"load_u32_at_byte(sp, {base}{idx})"
    return f"sp[{slot}, {idx}]"


def d_encrypt(ll: str, r: str, risc: int, ptr: bool) -> list[str]:
    """Source lines of one round: ``ll ^= f(r, round key (ku, kt))``."""
    m = "0xFC" if ptr else "0x3F"
    lines = [f"u = {r} ^ ku", f"t = {r} ^ kt"]
    if risc == 0:
        # Default: eight independent extractions straight from u and t.
        lines.append(ROT4.format(t="t"))
        if ptr:
            idx = ["u & 0xFC", "(u >> 8) & 0xFC", "(u >> 16) & 0xFC", "(u >> 24) & 0xFC"]
            tdx = [i.replace("u", "t") for i in idx]
        else:
            idx = ["(u >> 2) & 0x3F", "(u >> 10) & 0x3F", "(u >> 18) & 0x3F", "(u >> 26) & 0x3F"]
            tdx = [i.replace("u", "t") for i in idx]
        terms = [_load(ptr, 2 * i, idx[i]) for i in range(4)]
        terms += [_load(ptr, 2 * i + 1, tdx[i]) for i in range(4)]
        lines.append(f"{ll} ^= (")
        lines += [f"    {term}{' ^' if n < 7 else ''}" for n, term in enumerate(terms)]
        lines.append(")")
        return lines
    if not ptr:
        # Non-PTR RISC forms pre-shift so that indices need no further shift.
        lines += ["u >>= 2", ROT6.format(t="t")]
    else:
        lines.append(ROT4.format(t="t"))
    if risc == 1:
        # RISC1: shift u (then t) down by 16 and re-use three temporaries.
        lines += [
            f"u2 = (u >> 8) & {m}",
            f"u1 = u & {m}",
            "u >>= 16",
            f"{ll} ^= {_load(ptr, 0, 'u1')}",
            f"{ll} ^= {_load(ptr, 2, 'u2')}",
            f"u3 = (u >> 8) & {m}",
            f"u1 = u & {m}",
            f"{ll} ^= {_load(ptr, 4, 'u1')}",
            f"{ll} ^= {_load(ptr, 6, 'u3')}",
            f"u2 = (t >> 8) & {m}",
            f"u1 = t & {m}",
            "t >>= 16",
            f"{ll} ^= {_load(ptr, 1, 'u1')}",
            f"{ll} ^= {_load(ptr, 3, 'u2')}",
            f"u3 = (t >> 8) & {m}",
            f"u1 = t & {m}",
            f"{ll} ^= {_load(ptr, 5, 'u1')}",
            f"{ll} ^= {_load(ptr, 7, 'u3')}",
        ]
    else:
        # RISC2: the upper two indices by independent >> 16 / >> 24 into fresh temporaries.
        lines += [
            f"u2 = (u >> 8) & {m}",
            f"u1 = u & {m}",
            f"{ll} ^= {_load(ptr, 0, 'u1')}",
            f"{ll} ^= {_load(ptr, 2, 'u2')}",
            f"s1 = (u >> 16) & {m}",
            f"s2 = (u >> 24) & {m}",
            f"{ll} ^= {_load(ptr, 4, 's1')}",
            f"{ll} ^= {_load(ptr, 6, 's2')}",
            f"u2 = (t >> 8) & {m}",
            f"u1 = t & {m}",
            f"{ll} ^= {_load(ptr, 1, 'u1')}",
            f"{ll} ^= {_load(ptr, 3, 'u2')}",
            f"s1 = (t >> 16) & {m}",
            f"s2 = (t >> 24) & {m}",
            f"{ll} ^= {_load(ptr, 5, 's1')}",
            f"{ll} ^= {_load(ptr, 7, 's2')}",
        ]
    return lines


def indent(lines: list[str], n: int) -> list[str]:
    return [" " * n + line for line in lines]


def round_name(risc: int, ptr: bool) -> str:
    """The round function of a (RISC, PTR) option pair: UNROLL shares it with the loop."""
    return "d_encrypt" + "".join(f"_{w}" for w in variant_name(False, risc, ptr).split("+")[1:])


def all_rounds() -> list[tuple[int, bool]]:
    return [(r, p) for r, p in itertools.product((0, 1, 2), (False, True))]


def round_function(risc: int, ptr: bool) -> list[str]:
    """libdes's ``D_ENCRYPT`` for one (RISC, PTR) pair: ``ll ^ f(r, (ku, kt))``.

    Compiled once by Numba and inlined by LLVM at every call site
    (``engines.jit``), so an unrolled block is still 16 rounds of straight
    code; Numba types and lowers one round, not 16 (or 32 interleaved).
    """
    options = variant_name(False, risc, ptr).split("+")[1:]
    label = "+".join(o.upper() for o in options) if options else "no RISC or PTR option"
    return [
        f"def {round_name(risc, ptr)}(ll, r, ku, kt, sp):",
        f'    """One round ({label}): ``ll ^ f(r)`` under the round key (ku, kt)."""',
        "    always_inline()",
        *indent(d_encrypt("ll", "r", risc, ptr), 4),
        "    return ll",
    ]


_STATE = re.compile(r"\b(left|right)\b")


def _second(lines: list[str]) -> list[str]:
    """The same round code on a second block's variables (``left`` -> ``left_b``, ...)."""
    return [_STATE.sub(r"\1_b", line) for line in lines]


def _rounds(unroll: bool, risc: int, ptr: bool, lanes: int) -> list[str]:
    """The 16 rounds of every pass, for one block or two interleaved (``lanes``)."""
    fn = round_name(risc, ptr)

    def rnd(ll: str, r: str, k: str) -> list[str]:
        lines = [f"{ll} = {fn}({ll}, {r}, ks[{k}], ks[{k} + 1], sp)"]
        return lines if lanes == 1 else lines + _second(lines)

    out = []
    if unroll:
        out.append("        k = 32 * p")
        body: list[str] = []
        for n in range(16):
            ll, r = ("left", "right") if n % 2 == 0 else ("right", "left")
            body.append(f"# round {n + 1}")
            body += rnd(ll, r, f"k + {2 * n}" if n else "k")
        out += indent(body, 8)
    else:
        out.append("        for k in range(32 * p, 32 * p + 32, 8):")
        body = []
        for j, (ll, r) in enumerate([("left", "right"), ("right", "left")] * 2):
            body += rnd(ll, r, f"k + {2 * j}" if j else "k")
        out += indent(body, 12)
    swap = ["        left, right = right, left"]
    return out + (swap if lanes == 1 else swap + _second(swap))


def block_function(unroll: bool, risc: int, ptr: bool) -> list[str]:
    name = variant_name(unroll, risc, ptr)
    fn = "block_" + name.replace("+", "_")
    return [
        f"def {fn}(x, ks, sp):",
        f'    """``{name}``: encrypt one block value under ks (32 words a pass, any passes)."""',
        "    always_inline()",
        "    left, right = split_into_frame(x)",
        "    for p in range(ks.shape[0] // 32):",
        *_rounds(unroll, risc, ptr, 1),
        "    return join_from_frame(left, right)",
    ]


def block2_function(unroll: bool, risc: int, ptr: bool) -> list[str]:
    """Two independent blocks with their rounds interleaved.

    One block's rounds form a dependency chain (key XOR, index, table load,
    XOR) that leaves most of a modern core idle; a second chain of the same
    ``D_ENCRYPT`` code in the same loop fills it.  Used where blocks are
    independent (ECB); chained modes run ``block_*``.
    """
    name = variant_name(unroll, risc, ptr)
    fn = "block2_" + name.replace("+", "_")
    return [
        f"def {fn}(x, x_b, ks, sp):",
        f'    """``{name}``: encrypt two block values at once (rounds interleaved)."""',
        "    always_inline()",
        "    left, right = split_into_frame(x)",
        "    left_b, right_b = split_into_frame(x_b)",
        "    for p in range(ks.shape[0] // 32):",
        *_rounds(unroll, risc, ptr, 2),
        "    return join_from_frame(left, right), join_from_frame(left_b, right_b)",
    ]


def ecb_function(unroll: bool, risc: int, ptr: bool) -> list[str]:
    name = variant_name(unroll, risc, ptr)
    fn = name.replace("+", "_")
    return [
        f"def ecb_{fn}(src, dst, ks, sp, swap):",
        f'    """``{name}`` over a batch, two blocks at a time: dst[i] = E(src[i]); swap: words are big-endian bytes.',
        "",
        "    One call site of the (inlined) pair function keeps compile time down.",
        '    """',
        "    n = src.shape[0]",
        "    for i in range(0, n, 2):",
        "        j = min(i + 1, n - 1)  # an odd last block runs as both halves of the pair",
        f"        y, y_b = block2_{fn}(val(src[i], swap), val(src[j], swap), ks, sp)",
        "        dst[j] = val(y_b, swap)",
        "        dst[i] = val(y, swap)",
    ]


#: The chains a chain kernel serves, by the names the generated code uses.
CHAIN_CONSTANTS = ("CBC_ENCRYPT", "CBC_DECRYPT", "CFB_ENCRYPT", "CFB_DECRYPT", "OFB", "CTR")
assert {getattr(chains, c) for c in CHAIN_CONSTANTS} == chains.BLOCK_CHAINS


def chain_function(unroll: bool, risc: int, ptr: bool) -> list[str]:
    """Every whole-block chained mode over one stream, the chaining inside the kernel.

    One kernel per variant with the mode chosen by a code: one loop with one
    inlined copy of the rounds (the mode branches are perfectly predictable),
    so a stream costs one call, not one per block.  ``state`` and the return value are block values: the IV / previous
    ciphertext (CBC, CFB), the previous keystream block (OFB) or the next
    counter (CTR, wrapping mod 2**64).  XOR commutes with the byte swap, so
    chaining XORs could run on raw words; only cipher inputs and outputs need
    the value, which ``val`` gives.
    """
    name = variant_name(unroll, risc, ptr)
    fn = name.replace("+", "_")
    blk = f"block_{fn}"
    return [
        f"def chain_{fn}(src, dst, ks, sp, swap, mode, state):",
        f'    """``{name}`` over a stream in chain ``mode`` (``engines.chains``); returns the next state."""',
        "    s = state",
        "    for i in range(src.shape[0]):",
        "        w = val(src[i], swap)",
        "        # cipher input: P ^ C_prev (CBC encrypt), C (CBC decrypt), else the state",
        "        x = w ^ s if mode == CBC_ENCRYPT else (w if mode == CBC_DECRYPT else s)",
        f"        y = {blk}(x, ks, sp)",
        "        if mode == CBC_ENCRYPT:  # C = E(P ^ C_prev)",
        "            s = y",
        "            o = y",
        "        elif mode == CBC_DECRYPT:  # (ks reversed): P = D(C) ^ C_prev",
        "            o = y ^ s",
        "            s = w",
        "        elif mode == CFB_ENCRYPT:  # CFB-64: C = P ^ E(C_prev)",
        "            o = w ^ y",
        "            s = o",
        "        elif mode == CFB_DECRYPT:  # CFB-64: P = C ^ E(C_prev)",
        "            o = w ^ y",
        "            s = w",
        "        elif mode == OFB:  # O = E(O_prev), out = in ^ O",
        "            o = w ^ y",
        "            s = y",
        "        else:  # CTR: out = in ^ E(counter), counter + 1 mod 2**64",
        "            o = w ^ y",
        "            s += ONE",
        "        dst[i] = val(o, swap)",
        "    return s",
    ]


def rows_function(unroll: bool, risc: int, ptr: bool) -> list[str]:
    """A key per row: row i of (rows, blocks) words under key form ks2d[i] (ECB or a chain)."""
    name = variant_name(unroll, risc, ptr)
    fn = name.replace("+", "_")
    return [
        f"def rows_{fn}(src2d, dst2d, ks2d, sp, swap, mode, ivs):",
        f'    """``{name}`` with key i for row i: ECB or a chain per row, ks2d[i] its key form."""',
        "    for i in range(src2d.shape[0]):",
        "        if mode == ECB_ENCRYPT or mode == ECB_DECRYPT:",
        f"            ecb_{fn}(src2d[i], dst2d[i], ks2d[i], sp, swap)",
        "        else:",
        f"            chain_{fn}(src2d[i], dst2d[i], ks2d[i], sp, swap, mode, ivs[i])",
    ]


def cfb8_function(unroll: bool, risc: int, ptr: bool) -> list[str]:
    """CFB-8: one cipher call per byte, the 64-bit shift register inside the kernel."""
    name = variant_name(unroll, risc, ptr)
    fn = name.replace("+", "_")
    return [
        f"def cfb8_{fn}(src, dst, ks, sp, reg, decrypt):",
        f'    """``{name}`` CFB-8 over bytes src into dst (may be src); returns the register."""',
        "    for i in range(src.shape[0]):",
        "        b = np.uint64(src[i])",
        f"        o = b ^ (block_{fn}(reg, ks, sp) >> B56)",
        "        dst[i] = np.uint8(o)",
        "        reg = (reg << B8) | (b if decrypt else o)",
        "    return reg",
    ]


HEADER = '''"""libdes's twelve table-driven inner loops as njit kernels (GENERATED: do not edit).

Generated by ``python -m tools.gen_table_kernels``; edit that script and re-run it.

Six round functions, ``d_encrypt[_risc1|_risc2][_ptr](ll, r, ku, kt, sp)``:
libdes's ``D_ENCRYPT`` for each (RISC, PTR) option pair, ``ll ^ f(r)`` under
one round key, compiled once and inlined by LLVM wherever it is called (so
the unrolled variants are 16 rounds of straight code in the machine code,
while Numba types one round).  For each variant there are six functions:

* ``block_<variant>(x, ks, sp)``: one 64-bit block value through IP, the
  rounds of every 32-word pass in ``ks`` (halves swapped after each pass, so
  3 passes are EDE) and FP; ``block2_<variant>`` does two blocks with their
  rounds interleaved (both compiled once and inlined by LLVM into the
  kernels below, see ``engines.jit``).
* ``ecb_<variant>(src, dst, ks, sp, swap)``: ``block2`` over a batch of words.
* ``chain_<variant>(src, dst, ks, sp, swap, mode, state)``: the whole-block
  chains of ``engines.chains`` over one stream, returning the next chaining
  value; ``cfb8_<variant>(src, dst, ks, sp, reg, decrypt)``: CFB-8 over
  bytes, returning the shift register.
* ``rows_<variant>(src2d, dst2d, ks2d, sp, swap, mode, ivs)``: a key per
  row, ECB or a chain over each row under its own key form ``ks2d[i]``.

The functions are written here undecorated; ``KERNELS[name]`` wraps one
variant's (``inline`` for its round and block functions, ``njit(nogil=True,
cache=True)`` for the four kernels) when that variant is first asked for,
so ``import numbades`` creates no dispatcher of a variant the process never
uses.  The wrappers replace the plain functions in this module's globals,
where Numba looks a kernel's callees up when it compiles it; Numba's disk
cache keys each kernel on this file and its qualname, as if decorated here.

``ks`` holds (Ku, Kt) uint32 pairs from ``frame.frame_schedule``; ``sp`` is
``frame.SPTRANS`` (8, 64) or, for PTR variants, the flat
``frame.SPTRANS_FLAT`` read by byte offset.  Half-blocks are int64 values
below 2**32 held in the rotated frame described in ``frame``.
"""

import threading
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher

from ..chains import (
    CBC_DECRYPT,
    CBC_ENCRYPT,
    CFB_DECRYPT,
    CFB_ENCRYPT,
    ECB_DECRYPT,
    ECB_ENCRYPT,
    OFB,
)
from ..jit import always_inline, inline
from .ip_fp import bswap64, join_from_frame, split_into_frame
from .ptr_load import load_u32_at_byte

# ruff: noqa: E501

_INLINED_SOURCES_SHA256 = ""  # see tools/stamp_kernel_sources.py

ONE = np.uint64(1)
B8 = np.uint64(8)
B56 = np.uint64(56)


@inline
def val(word, swap):
    """A raw word as its block value (or back: the swap is an involution)."""
    always_inline()
    return bswap64(word) if swap else word
'''


FOOTER = '''

class VariantKernels(NamedTuple):
    """The compiled entry points of one table variant."""

    ecb: Any
    chain: Any
    cfb8: Any
    rows: Any
    ptr: bool  # reads the flat PTR table by byte offset
    block: Any  # block_<variant>, the one-block function its kernels inline


#: variant name -> (its inlined round and block functions, its ecb/chain/cfb8/rows kernels, ptr)
_FUNCTIONS: dict[str, tuple[tuple[str, str, str], tuple[str, str, str, str], bool]] = {
@FUNCTIONS@
}


class _Variants(Mapping):
    """Variant name -> its :class:`VariantKernels`, each variant wrapped when first asked for."""

    def __init__(self) -> None:
        self._made: dict[str, VariantKernels] = {}
        self._lock = threading.Lock()  # background compiles ask from their own threads

    def __getitem__(self, name: str) -> VariantKernels:
        made = self._made.get(name)
        if made is None:
            blocks, entries, ptr = _FUNCTIONS[name]
            with self._lock:
                made = self._made.get(name)
                if made is None:
                    made = self._made[name] = _wrap(blocks, entries, ptr)
        return made

    def __iter__(self) -> Iterator[str]:
        return iter(_FUNCTIONS)

    def __len__(self) -> int:
        return len(_FUNCTIONS)

    def created(self) -> list[str]:
        """The variants whose dispatchers exist in this process."""
        return [name for name in _FUNCTIONS if name in self._made]


def _wrap(helpers: tuple[str, str, str], entries: tuple[str, str, str, str],
          ptr: bool) -> VariantKernels:
    """Decorate one variant's functions in place (globals are what Numba resolves callees from).

    The round function is shared with the variant that differs only in UNROLL:
    wrapped by whichever of the two comes first.
    """
    scope = globals()
    for name in helpers:
        if not isinstance(scope[name], Dispatcher):
            scope[name] = inline(scope[name])
    for name in entries:
        scope[name] = njit(nogil=True, cache=True)(scope[name])
    ecb, chain, cfb8, rows = (scope[name] for name in entries)
    return VariantKernels(ecb, chain, cfb8, rows, ptr, scope[helpers[1]])


#: variant name -> its kernels (created on first access)
KERNELS = _Variants()
'''


def generate() -> str:
    chunks = [HEADER]
    names = []
    for risc, ptr in all_rounds():
        chunks.append("\n\n" + "\n".join(round_function(risc, ptr)) + "\n")
    for unroll, risc, ptr in all_variants():
        chunks.append("\n\n" + "\n".join(block_function(unroll, risc, ptr)) + "\n")
        chunks.append("\n\n" + "\n".join(block2_function(unroll, risc, ptr)) + "\n")
        chunks.append("\n\n" + "\n".join(ecb_function(unroll, risc, ptr)) + "\n")
        chunks.append("\n\n" + "\n".join(chain_function(unroll, risc, ptr)) + "\n")
        chunks.append("\n\n" + "\n".join(cfb8_function(unroll, risc, ptr)) + "\n")
        chunks.append("\n\n" + "\n".join(rows_function(unroll, risc, ptr)) + "\n")
        names.append((variant_name(unroll, risc, ptr), round_name(risc, ptr), ptr))
    table = "\n".join(
        '    "{n}": (("{r}", "block_{f}", "block2_{f}"), ("ecb_{f}", "chain_{f}", "cfb8_{f}", "rows_{f}"), {ptr}),'.format(
            n=n, r=r, f=n.replace("+", "_"), ptr=ptr
        )
        for n, r, ptr in names
    )
    chunks.append(FOOTER.replace("@FUNCTIONS@", table))
    text = "".join(chunks)
    # The stamp covers ip_fp, ptr_load and chains, which these kernels inline.
    stamp = stamp_kernel_sources.render_stamp(
        stamp_kernel_sources.fingerprint(MODULE, source=text)
    )
    return stamp_kernel_sources.STAMP_LINE.sub(stamp, text, count=1)


def main() -> None:
    TARGET.write_text(generate())
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
