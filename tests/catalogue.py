"""The modes and engines the tests loop over, listed once for every test module.

The modes are written out from ``docs/api.md`` (not read from the library,
so a test's expectations do not come from the code under test);
``test_modes.test_the_catalogue_is_the_librarys`` checks they are the
library's, so a new mode or engine shows up here and in every test that
loops over these lists.  The engines are ``numbades.variants()``: every
engine is a name the tests run.
"""

from __future__ import annotations

import numbades

#: The modes of ``encrypt``/``decrypt`` and the streaming contexts that pycryptodome
#: (``tests/oracle.py``) has: the loops over engines and input kinds run these.
MODES = ("ecb", "cbc", "cfb", "cfb8", "ofb", "ctr")
#: The modes the oracle lacks, checked against OpenSSL's libdes in ``test_pcbc_cfb1.py``.
LIBDES_MODES = ("pcbc", "cfb1")
#: Every mode the cipher objects take.
EVERY_MODE = MODES + LIBDES_MODES
#: Modes of whole blocks among ``MODES``.
BLOCK_MODES = ("ecb", "cbc")
#: Every mode of whole blocks: the modes that take ``padding=``.
PADDED_MODES = (*BLOCK_MODES, "pcbc")
#: Modes that take an ``iv``.
IV_MODES = tuple(m for m in MODES if m != "ecb")
#: Modes of any length among ``MODES`` (a keystream XORed into the data).
BYTE_MODES = tuple(m for m in MODES if m not in BLOCK_MODES)
#: Every mode of any length.
ANY_LENGTH_MODES = tuple(m for m in EVERY_MODE if m not in PADDED_MODES)
#: Modes of ``encrypt_many``/``decrypt_many`` and key arrays (no CFB-8).
MANY_MODES = ("ecb", "cbc", "cfb", "ofb", "ctr")

#: Every engine name, in ``numbades.variants()`` order (12 table variants, bitslice).
ENGINES = tuple(numbades.variants())
#: The table variants.
TABLE = tuple(v for v in ENGINES if v != "bitslice")
#: Every engine with every mode it has (bitslice has no CFB-8: refused, see test_mode_errors).
ENGINE_MODES = tuple((e, m) for e in ("auto", *ENGINES) for m in MODES
                     if (e, m) != ("bitslice", "cfb8"))
