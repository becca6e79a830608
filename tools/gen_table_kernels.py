"""Generate ``numbades/_table_kernels.py``: libdes's twelve inner-loop variants.

libdes chose its inner loop at compile time with four macros; numbades makes
each combination a separate njit kernel, written out as source so that every
variant is visible, greppable and cacheable (Numba caches functions that live
in a real file).  This generator is the single place their structure is
described:

* ``D_ENCRYPT`` bodies, one per (RISC option, PTR option): the order in which
  the eight table indices are extracted from ``u = R ^ Ku`` and
  ``t = rotr(R ^ Kt, 4)``, and whether tables are read by array index or by
  byte offset from the flat table (``_ptr_load.load_u32_at_byte``).
* The round structure: a loop doing 4 rounds per iteration with the key index
  stepping by 8 words (default), or all 16 rounds written out (UNROLL).

Run ``python tools/gen_table_kernels.py`` after changing it; a test checks
that the committed module is what this script generates.
"""

from __future__ import annotations

import itertools
from pathlib import Path

TARGET = Path(__file__).resolve().parent.parent / "numbades" / "_table_kernels.py"

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


def d_encrypt(ll: str, r: str, k: str, risc: int, ptr: bool) -> list[str]:
    """Source lines of one round: ``ll ^= f(r, round key at ks[k], ks[k + 1])``."""
    m = "0xFC" if ptr else "0x3F"
    lines = [f"u = {r} ^ ks[{k}]", f"t = {r} ^ ks[{k} + 1]"]
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


def block_function(unroll: bool, risc: int, ptr: bool) -> list[str]:
    name = variant_name(unroll, risc, ptr)
    fn = "block_" + name.replace("+", "_")
    out = [
        "@njit(nogil=True, cache=True)",
        f"def {fn}(x, ks, sp):",
        f'    """``{name}``: encrypt one block value under ks (32 words a pass, any passes)."""',
        "    left, right = split_into_frame(x)",
        "    for p in range(ks.shape[0] // 32):",
    ]
    if unroll:
        out.append("        k = 32 * p")
        body: list[str] = []
        for rnd in range(16):
            ll, r = ("left", "right") if rnd % 2 == 0 else ("right", "left")
            off = f"k + {2 * rnd}" if rnd else "k"
            body.append(f"# round {rnd + 1}")
            body += d_encrypt(ll, r, off, risc, ptr)
        out += indent(body, 8)
    else:
        out.append("        for k in range(32 * p, 32 * p + 32, 8):")
        body = []
        for j, (ll, r) in enumerate([("left", "right"), ("right", "left")] * 2):
            body += d_encrypt(ll, r, f"k + {2 * j}" if j else "k", risc, ptr)
        out += indent(body, 12)
    out += [
        "        left, right = right, left",
        "    return join_from_frame(left, right)",
    ]
    return out


def ecb_function(unroll: bool, risc: int, ptr: bool) -> list[str]:
    name = variant_name(unroll, risc, ptr)
    fn = name.replace("+", "_")
    return [
        "@njit(nogil=True, cache=True)",
        f"def ecb_{fn}(src, dst, ks, sp, swap):",
        f'    """``{name}`` over a batch: dst[i] = E(src[i]); swap: words are big-endian bytes."""',
        "    for i in range(src.shape[0]):",
        "        x = src[i]",
        "        if swap:",
        "            x = bswap64(x)",
        f"        y = block_{fn}(x, ks, sp)",
        "        dst[i] = bswap64(y) if swap else y",
    ]


HEADER = '''"""libdes's twelve table-driven inner loops as njit kernels (GENERATED: do not edit).

Generated by ``tools/gen_table_kernels.py``; edit that script and re-run it.

For each variant there are two functions:

* ``block_<variant>(x, ks, sp)``: one 64-bit block value through IP, the
  rounds of every 32-word pass in ``ks`` (halves swapped after each pass, so
  3 passes are EDE) and FP.
* ``ecb_<variant>(src, dst, ks, sp, swap)``: that over a batch of words.

``ks`` holds (Ku, Kt) uint32 pairs from ``_keyschedule.frame_schedule``;
``sp`` is ``_tables.SPTRANS`` (8, 64) or, for PTR variants, the flat
``_tables.SPTRANS_FLAT`` read by byte offset.  Half-blocks are int64 values
below 2**32 held in the rotated frame described in ``_tables``.
"""

from numba import njit

from ._bitperm import bswap64, join_from_frame, split_into_frame
from ._ptr_load import load_u32_at_byte

# ruff: noqa: E501
'''


def generate() -> str:
    chunks = [HEADER]
    names = []
    for unroll, risc, ptr in all_variants():
        chunks.append("\n\n" + "\n".join(block_function(unroll, risc, ptr)) + "\n")
        chunks.append("\n\n" + "\n".join(ecb_function(unroll, risc, ptr)) + "\n")
        names.append((variant_name(unroll, risc, ptr), ptr))
    table = "\n".join(
        f'    "{n}": (block_{n.replace("+", "_")}, ecb_{n.replace("+", "_")}, {ptr}),'
        for n, ptr in names
    )
    chunks.append(
        "\n\n#: variant name -> (block function, ECB kernel, reads the flat PTR table)\n"
        f"KERNELS = {{\n{table}\n}}\n"
    )
    return "".join(chunks).replace("load_u32_at_byte", "load_u32_at_byte")


def main() -> None:
    TARGET.write_text(generate())
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
