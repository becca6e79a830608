"""Where the generators write: numbades' generated modules, named in one place.

``python -m tools.gen_table_kernels``, ``tools.gen_sbox_circuits`` and
``tools.gen_sbox_luts`` write these files (their ``--output`` defaults), and
the tests that check the committed files are fresh import the modules these
paths name.
"""

from __future__ import annotations

from tools.stamp_kernel_sources import PACKAGE

#: libdes's twelve table-driven kernels (:mod:`tools.gen_table_kernels`).
TABLE_KERNELS = PACKAGE / "engines" / "table" / "kernels_gen.py"
#: The 2-input gate S-box circuits (:mod:`tools.gen_sbox_circuits`).
SBOX_CIRCUITS = PACKAGE / "engines" / "bitslice" / "sboxes" / "sbox_circuits_gen.py"
#: The 3-input-LUT S-box programs (:mod:`tools.gen_sbox_luts`).
SBOX_LUTS = PACKAGE / "engines" / "bitslice" / "sboxes" / "sbox_luts_gen.py"
#: The 2-input gate circuits with their NOTs folded into the inputs (:mod:`tools.gen_sbox_folded`).
SBOX_FOLDED = PACKAGE / "engines" / "bitslice" / "sboxes" / "sbox_folded_gen.py"
