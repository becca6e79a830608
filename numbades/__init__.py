"""numbades: DES and Triple-DES for NumPy arrays, compiled by Numba.

libdes's table-driven inner loops (UNROLL x RISC1/RISC2 x PTR) as run-time
variants, plus a bitsliced, constant-time batch engine; ``variants()`` lists
every engine and ``variant="auto"`` (the default) picks one per call.

The public surface is the names below:

- ``DES(key)``, ``TripleDES(key)`` (EDE, 16 or 24 bytes;
  ``allow_degenerate=True`` admits keys that collapse to single DES) and
  ``DESX(key24)`` (RSA's DESX, OpenSSL's ``desx-cbc`` key layout): ``encrypt``
  and ``decrypt`` in ``ecb``, ``cbc``, ``pcbc``, ``cfb``, ``cfb8``, ``cfb1``,
  ``ofb`` and ``ctr`` over bytes-like data, uint8 arrays (raw bytes) and
  uint64 arrays (one big-endian block per element), with ``iv=``,
  ``padding=`` (``"pkcs7"``, ``"iso7816"``, ``"zeros"``) and ``out=``;
  ``encryptor``/``decryptor`` for streams (``AlreadyFinalized`` after
  ``finalize``); ``encrypt_many``/``decrypt_many`` for many equal-length
  messages, one IV each;
- ``DESArray`` and ``TripleDESArray``: row i of the data under key i;
  ``key_check_values``;
- ``crypt``, ``crypt_many``, ``crypt_verify``: DES-based crypt(3) hashes;
- key helpers: ``set_odd_parity``, ``has_odd_parity``, ``is_weak_key``,
  ``is_semi_weak_key``; ``random_key(size)`` (odd parity, never weak or
  degenerate); libdes's ``string_to_key`` and ``string_to_2keys``;
- ``mac``: ISO/IEC 9797-1 MAC algorithms 1 and 3 (CBC-MAC, retail MAC),
  CMAC and libdes's ``quad_cksum``, over one message or many rows and keys.

Each name's docstring states its rules; the full contract is in the
numbades documentation (docs/api.md in the source tree).  The subpackages
are the implementation, layered top-down: ``cli`` -> ``cipher`` ->
``modes`` -> ``tuning`` -> ``engines`` -> ``des``.  ``numbades.dask`` (the
``dask`` extra) encrypts Dask arrays with these objects; ``import numbades``
does not import Dask.
"""

from . import mac
from .cipher import DES, DESX, TripleDES
from .des.keys import has_odd_parity, is_semi_weak_key, is_weak_key, set_odd_parity
from .engines.registry import variants
from .key_arrays import DESArray, TripleDESArray, key_check_values
from .keygen import random_key, string_to_2keys, string_to_key
from .modes.contexts import AlreadyFinalized
from .unix_crypt import crypt, crypt_many, crypt_verify, crypt_verify_many

__version__ = "0.1.0"
__all__ = [
    "DES",
    "DESX",
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
    "mac",
    "random_key",
    "set_odd_parity",
    "string_to_2keys",
    "string_to_key",
    "variants",
]
