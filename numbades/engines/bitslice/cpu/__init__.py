"""What the compile target gives the bitslice kernels.

``target`` (AVX-512 or not: the one rule), ``vector_width`` (asks LLVM for
512-bit vectors), ``simd`` (explicit vectors: 512-bit with AVX-512, 256-bit
elsewhere; ``ternary`` = one ``vpternlogq``).
"""
