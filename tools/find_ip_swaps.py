"""Find the shortest swap-and-mask (delta-swap) sequence implementing DES's IP.

IP is an *affine* map on the 6 index bits of a bit position (it transposes the
8x8 bit matrix of a block, reverses one axis and permutes rows), so it is a
product of delta swaps, each of which exchanges or complements index bits.
This breadth-first search over (permutation, complement) states finds a
shortest such product; its (shift, mask) steps are what
``numbades.engines.table.ip_fp`` uses.  FP is the same steps in reverse order.

Run: ``python -m tools.find_ip_swaps``
"""

from __future__ import annotations

from collections import deque

from tools.stamp_kernel_sources import load_standalone

fips = load_standalone("des.fips")

State = tuple[tuple[int, ...], int]  # (index bit k of output <- index bit perm[k]), complement mask


def ip_as_index_map() -> State:
    """Express IP as: output position index bit k = input index bit perm[k] ^ ((cmask >> k) & 1).

    Positions are LSB-0 bit positions of the 64-bit block value (FIPS bit n sits at 64 - n).
    """
    dest_of = {}
    for i, src in enumerate(fips.IP):  # output FIPS bit i+1 <- input FIPS bit src
        dest_of[64 - src] = 63 - i
    perm, cmask = [], 0
    for k in range(6):
        zero_in = dest_of[0]
        bit_k = (zero_in >> k) & 1
        cmask |= bit_k << k
        for j in range(6):
            if ((dest_of[1 << j] >> k) & 1) != bit_k:
                perm.append(j)
                break
    state = (tuple(perm), cmask)
    for pos, dst in dest_of.items():
        assert apply_map(state, pos) == dst, "IP is not affine on index bits"
    return state


def apply_map(state: State, pos: int) -> int:
    perm, cmask = state
    return sum((((pos >> perm[k]) & 1) << k) for k in range(6)) ^ cmask


def moves() -> list[tuple[str, int, int]]:
    """Each delta swap as (kind, i, j) on output index bits."""
    out = [("flip", i, i) for i in range(6)]
    for i in range(6):
        for j in range(i):
            out += [("swap", i, j), ("antiswap", i, j)]
    return out


def step(state: State, move: tuple[str, int, int]) -> State:
    perm, cmask = list(state[0]), state[1]
    kind, i, j = move
    bi, bj = (cmask >> i) & 1, (cmask >> j) & 1
    if kind == "flip":
        cmask ^= 1 << i
    else:
        perm[i], perm[j] = perm[j], perm[i]
        cmask &= ~((1 << i) | (1 << j))
        if kind == "swap":
            cmask |= (bj << i) | (bi << j)
        else:
            cmask |= ((bj ^ 1) << i) | ((bi ^ 1) << j)
    return tuple(perm), cmask


def delta_swap(move: tuple[str, int, int]) -> tuple[int, int]:
    """(shift, mask) with x' = x ^ t ^ (t << shift), t = ((x >> shift) ^ x) & mask."""
    kind, i, j = move
    if kind == "flip":
        shift = 1 << i
        mask = sum(1 << p for p in range(64) if not (p >> i) & 1)
    elif kind == "swap":  # positions with bit i = 0, bit j = 1 trade with bit i = 1, bit j = 0
        shift = (1 << i) - (1 << j)
        mask = sum(1 << p for p in range(64) if (p >> j) & 1 and not (p >> i) & 1)
    else:  # (0,0) trades with (1,1)
        shift = (1 << i) + (1 << j)
        mask = sum(1 << p for p in range(64) if not (p >> j) & 1 and not (p >> i) & 1)
    return shift, mask


def shortest_sequence(target: State) -> list[tuple[str, int, int]]:
    identity: State = (tuple(range(6)), 0)
    seen = {identity: None}
    queue = deque([identity])
    all_moves = moves()
    while queue:
        s = queue.popleft()
        if s == target:
            break
        for m in all_moves:
            n = compose(s, m)
            if n not in seen:
                seen[n] = (s, m)
                queue.append(n)
    path = []
    s = target
    while seen[s] is not None:
        s, m = seen[s]
        path.append(m)
    return path[::-1]


def compose(state: State, move: tuple[str, int, int]) -> State:
    """The map 'state, then the delta swap': apply the move to the output index bits."""
    return step(state, move)


def run_steps(x: int, steps: list[tuple[int, int]]) -> int:
    for shift, mask in steps:
        t = ((x >> shift) ^ x) & mask
        x ^= t ^ (t << shift)
    return x


def main() -> None:
    target = ip_as_index_map()
    seq = shortest_sequence(target)
    steps = [delta_swap(m) for m in seq]
    # check against the definition on single bits
    for n in range(1, 65):
        got = run_steps(1 << (64 - n), steps)
        want_pos = 63 - fips.IP.index(n)
        assert got == 1 << want_pos, (n, hex(got))
    print("IP_STEPS = (")
    for shift, mask in steps:
        print(f"    ({shift}, 0x{mask:016X}),")
    print(")")


if __name__ == "__main__":
    main()
