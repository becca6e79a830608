"""The bitslice engine: 64 x LANES blocks per pass as bit planes, S-boxes as Boolean circuits.

The engine and the kernels it calls sit at the top; what they are built
from sits in four groups below, each importing only the groups after it:

* here: ``engine`` (the engine interface), ``threads`` (a call over several
  cores), and the users of the round code: ``mode_kernels`` (CTR, CBC/CFB
  decryption, many messages), ``lane_keys`` (a key per lane), ``crypt3``
  (salted crypt(3) rounds);
* ``rounds/``: the round code (``lane_rounds``: ``crypt_into`` and the ECB
  kernels; ``simd_rounds``: the rounds on explicit vectors, one
  ``vpternlogq`` per LUT with AVX-512, one 2-input instruction per gate with
  AVX2);
* ``sboxes/``: the generated S-box circuits and their dispatch;
* ``layout/``: words <-> bit planes (``transpose``, ``simd_passes``), the
  wiring of IP, E and P, prefetching the next pass;
* ``cpu/``: the compile target and the one rule that reads it
  (``target``), LLVM's vector width, explicit vectors (``simd``).

No memory access or branch depends on key or data: the constant-time engine.
"""
