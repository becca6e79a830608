"""The S-boxes as Boolean circuits, generated from the FIPS tables.

``sbox_circuits_gen`` (2-input gates), ``sbox_luts_gen`` (3-input LUTs,
as expressions and as ``simd.ternary`` calls), ``dispatch`` (one inlined
``sbox(box, x)`` over eight of them, for the round code).
"""
