"""Where the bits of a pass live: moving blocks in and out of bit planes.

``transpose`` (words <-> planes, lane loops), ``simd_passes`` (a full
pass's transposes fused with its loads and stores, on explicit vectors),
``wiring`` (IP, E, P as row numbers of the work array), ``prefetch`` (the
next pass's lines, fetched while the rounds run).
"""
