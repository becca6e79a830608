"""The round code: sixteen (or 48) Feistel rounds on a pass's work array.

``lane_rounds`` (``crypt_into``/``crypt_work``, the shared one-key round
kernel; IP and FP renamings; the ECB kernels), ``simd_rounds`` (the round
code on explicit vectors, specialised by input functions, on every target:
one ``vpternlogq`` per LUT with AVX-512, one 2-input instruction per gate
with AVX2).
"""
