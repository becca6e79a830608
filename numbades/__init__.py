"""numbades: DES and Triple-DES for NumPy arrays, compiled by Numba.

libdes's table-driven inner loops (UNROLL x RISC1/RISC2 x PTR) as run-time
variants, plus a bitsliced batch engine.  See ``numbades.variants()``.

The public surface is the names below (``docs/api.md`` is the
contract); the subpackages are the implementation, layered top-down as
``docs/architecture.md`` describes: ``cli`` -> ``cipher`` -> ``modes`` ->
``tuning`` -> ``engines`` -> ``des``.  ``numbades.dask`` (the ``dask`` extra)
encrypts Dask arrays with these objects; ``import numbades`` does not import
Dask.
"""

from .cipher import DES, TripleDES
from .des.keys import has_odd_parity, is_semi_weak_key, is_weak_key, set_odd_parity
from .engines.registry import variants
from .key_arrays import DESArray, TripleDESArray, key_check_values
from .modes.contexts import AlreadyFinalized
from .unix_crypt import crypt, crypt_many, crypt_verify, crypt_verify_many

__version__ = "0.1.0"
__all__ = [
    "DES",
    "AlreadyFinalized",
    "DESArray",
    "TripleDES",
    "TripleDESArray",
    "__version__",
    "crypt",
    "crypt_many",
    "crypt_verify",
    "crypt_verify_many",
    "has_odd_parity",
    "is_semi_weak_key",
    "is_weak_key",
    "key_check_values",
    "set_odd_parity",
    "variants",
]
