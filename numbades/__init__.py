"""numbades: DES and Triple-DES for NumPy arrays, compiled by Numba.

libdes's table-driven inner loops (UNROLL x RISC1/RISC2 x PTR) as run-time
variants, plus a bitsliced batch engine.  See ``numbades.variants()``.
"""

from ._cipher import DES, TripleDES
from ._engines import variants
from ._keys import has_odd_parity, is_semi_weak_key, is_weak_key, set_odd_parity
from ._stream import AlreadyFinalized

__version__ = "0.1.0"
__all__ = [
    "DES",
    "AlreadyFinalized",
    "TripleDES",
    "__version__",
    "has_odd_parity",
    "is_semi_weak_key",
    "is_weak_key",
    "set_odd_parity",
    "variants",
]
