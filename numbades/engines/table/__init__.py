"""The table engine: libdes's ``D_ENCRYPT`` in its twelve compile-time shapes, as run-time variants.

``frame`` derives the SPtrans tables and the (Ku, Kt) key form from FIPS
46-3 in libdes's rotated-R frame; ``ip_fp`` holds IP and FP as delta swaps;
``ptr_load`` the byte-offset load of the PTR option; ``kernels_gen`` the
generated njit kernels (``python -m tools.gen_table_kernels``); ``engine``
wraps each variant's kernels in the engine interface.
"""
