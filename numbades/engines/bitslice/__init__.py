"""The bitslice engine: 64 x LANES blocks per pass as bit planes, S-boxes as Boolean circuits.

``transpose`` moves blocks between words and bit planes; ``rounds`` holds
the rounds (IP, E, P and FP as renamings, the generated S-box circuits
that ``circuit_choice`` picks for the CPU: ``sbox_luts_gen`` with AVX-512,
``sbox_circuits_gen`` elsewhere) and the ECB kernels; ``mode_kernels`` the chains
that fill a pass from one stream (CTR, CBC/CFB decryption) or from many
messages; ``threads`` spreads a call over cores; ``vector_width`` asks LLVM for
zmm registers; ``engine`` the engine interface.
No memory access or branch depends on key or data: the constant-time engine.
"""
