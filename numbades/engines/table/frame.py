"""The table engine's frame and tables, derived at import from FIPS 46-3 (``des.fips``).

The table engines work in libdes's *rotated-R frame*: a half-block is held as
a 32-bit word rotated so that every S-box's six E-expansion input bits sit at
six adjacent bit positions, at bits 2..7, 10..15, 18..23, 26..31 of either

    u = R ^ Ku            (four of the S-boxes), or
    t = rotr(R ^ Kt, 4)   (the other four).

E then costs nothing: it is the choice of which bits each table index takes.
Each ``SPTRANS[slot]`` maps those six bits straight to the S-box output passed
through P, expressed in the same rotated frame, so a round is eight loads and
XORs.  The round keys ``Ku``/``Kt`` carry each box's six key bits at the same
positions.  Which S-box serves which slot, and how index bits map onto S-box
inputs, is worked out here from E, not typed in.

Also here: the table engine's key form, (Ku, Kt) word pairs scattered from
the 48-bit round keys by chunk lookups (``frame_schedule``).
"""

import numpy as np
from numba import njit, types

from ...des import fips
from ...des.bits import chunk_tables, permute, rotl
from ..jit import loaded

_INLINED_SOURCES_SHA256 = "ebf41deadb054a1d0b162d7cf9110a3b0f5ddaab9c3f955c101ef9fb7dac9aef"  # see tools/stamp_kernel_sources.py

# The frame: R_frame = rotl32(R, FRAME_ROTATION), with R in FIPS order (bit 1 = MSB).
FRAME_ROTATION = 7
# t is rotated right by this much before its four table indices are taken.
T_ROTATION = 4
# Bit position of the lowest index bit of the table read from bits 2..7, 10..15, ...
SLOT_BASES = (2, 10, 18, 26)
MASK32 = 0xFFFFFFFF


def frame_bit_to_fips(position: int) -> int:
    """FIPS bit number (1..32) of R held at ``position`` (LSB-0) of the rotated frame."""
    return 32 - ((position - FRAME_ROTATION) % 32)


def to_frame(half: int) -> int:
    """A 32-bit FIPS-order half-block in the rotated frame."""
    return rotl(half, FRAME_ROTATION, 32)


def from_frame(word: int) -> int:
    """Inverse of :func:`to_frame`."""
    return rotl(word, 32 - FRAME_ROTATION, 32)


def slot_positions(slot: int) -> tuple[int, ...]:
    """Positions in R's frame word (before any key XOR) read by table ``slot``.

    Even slots read u directly; odd slots read t after its right rotation by
    4, so in R's own frame they sit 4 bits higher.  Index bit i of the slot's
    table comes from the i-th position returned.
    """
    base = SLOT_BASES[slot // 2]
    offset = 0 if slot % 2 == 0 else T_ROTATION
    return tuple((base + i + offset) % 32 for i in range(6))


def _slot_layout() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For each slot: (S-box number 0..7, E-position within the box for each index bit)."""
    layout = []
    for slot in range(8):
        r_bits = [frame_bit_to_fips(p) for p in slot_positions(slot)]
        for box in range(8):
            e_bits = fips.E[6 * box : 6 * box + 6]
            if sorted(e_bits) == sorted(r_bits):
                layout.append((box, tuple(e_bits.index(b) for b in r_bits)))
                break
        else:  # pragma: no cover - would mean the frame constants are wrong
            raise AssertionError(f"slot {slot} does not line up with one S-box")
    assert sorted(box for box, _ in layout) == list(range(8))
    return tuple(layout)


SLOT_LAYOUT = _slot_layout()
_SLOT_POSITIONS = tuple(slot_positions(slot) for slot in range(8))


def sbox_input_from_index(slot: int, index: int) -> int:
    """The 6-bit S-box input (b1 = MSB) that table index ``index`` of ``slot`` stands for."""
    _, e_positions = SLOT_LAYOUT[slot]
    return sum(((index >> i) & 1) << (5 - m) for i, m in enumerate(e_positions))


def _sptrans() -> np.ndarray:
    table = np.zeros((8, 64), dtype=np.uint32)
    for slot in range(8):
        box, _ = SLOT_LAYOUT[slot]
        for index in range(64):
            s_out = fips.sbox_lookup(box, sbox_input_from_index(slot, index))
            f = permute(s_out << (28 - 4 * box), fips.P, 32)
            table[slot, index] = to_frame(f)
    table.setflags(write=False)
    return table


#: SPtrans[slot][index]: P(S-box output) in the rotated frame, shape (8, 64) uint32.
SPTRANS = _sptrans()
#: The same eight tables laid end to end, 256 bytes each, for byte-offset (PTR) loads.
SPTRANS_FLAT = SPTRANS.reshape(-1)


def round_key_to_frame(k48: int) -> tuple[int, int]:
    """Scatter a 48-bit FIPS round key into the (Ku, Kt) words the table kernels XOR in."""
    ku = kt = 0
    for slot in range(8):
        box, e_positions = SLOT_LAYOUT[slot]
        positions = _SLOT_POSITIONS[slot]
        for i, m in enumerate(e_positions):
            bit = (k48 >> (47 - (6 * box + m))) & 1
            pos = positions[i]
            if slot % 2 == 0:
                ku |= bit << pos
            else:
                kt |= bit << pos
    return ku, kt


def _frame_word(round_key: int) -> int:
    ku, kt = round_key_to_frame(round_key)
    return (ku << 32) | kt


#: 48-bit round key -> (Ku << 32 | Kt) by 6-bit chunk.
FRAME_KEY_CHUNKS = chunk_tables(_frame_word, 48, 6)

_M6 = np.uint64(0x3F)


@njit(nogil=True, cache=True)
def _frame_schedule(round_keys, frame_chunks, out):
    for r in range(round_keys.shape[0]):
        k = round_keys[r]
        both = np.uint64(0)
        for j in range(8):
            both |= frame_chunks[j, (k >> np.uint64(42 - 6 * j)) & _M6]
        out[2 * r] = np.uint32(both >> np.uint64(32))
        out[2 * r + 1] = np.uint32(both & np.uint64(0xFFFFFFFF))


#: The compiled scatter, for kernels: ``frame_schedule_into(round_keys, FRAME_KEY_CHUNKS, out)``.
frame_schedule_into = _frame_schedule


def frame_schedule(round_keys: np.ndarray) -> np.ndarray:
    """The table kernels' key form: (Ku, Kt) pairs for round keys in application order.

    Shape (2 * R,) uint32 for R round keys (16 for DES, 48 for EDE).
    """
    round_keys = np.ascontiguousarray(round_keys, dtype=np.uint64)
    out = np.empty(2 * round_keys.shape[0], dtype=np.uint32)
    frame_schedule_ready()  # the first call: loaded without Numba's registry refresh
    _frame_schedule(round_keys, FRAME_KEY_CHUNKS, out)
    return out


def frame_schedule_ready() -> bool:
    """Whether ``frame_schedule``'s kernel is compiled or cached (then loaded, ``jit.loaded``)."""
    if not _frame_schedule_loaded and loaded(_frame_schedule, _FRAME_SCHEDULE_SIGNATURE):
        _frame_schedule_loaded.append(True)
    return bool(_frame_schedule_loaded)


_frame_schedule_loaded: list[bool] = []  # found compiled or cached (it stays loaded)
_FRAME_SCHEDULE_SIGNATURE = (types.Array(types.uint64, 1, "C"),
                             types.Array(types.uint64, 2, "C", readonly=True),
                             types.Array(types.uint32, 1, "C"))
