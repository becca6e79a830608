"""The round code: sixteen (or 48) Feistel rounds on a pass's work array.

``lane_rounds`` (the round code as lane loops, specialised by input
functions; ``crypt_into``, the shared one-key round kernel; the ECB
kernels), ``simd_rounds`` (the one-key rounds on explicit vectors, one
``vpternlogq`` per LUT, run with AVX-512).
"""
