"""Chains beside the generated kernels: PCBC, CFB-1, and DESX's whitening on every chain.

One module, two kernels over libdes's default loop (``kernels_gen.block_table``,
inlined), each taking a pre- and a post-whitening word: the block function
is ``E(x ^ pre) ^ post``.  With ``pre = post = 0`` that is plain DES or
Triple-DES; with DESX's K1 and K2 (swapped for the chains that run the
cipher backwards) it is DESX.  They are sequential kernels, rarely used, so
the twelve generated variants and the bitslice engine are left as they are:
``TableEngine`` sends PCBC, CFB-1 and any whitened key form
(``engines.base.Whitened``) here, whatever its variant (so these chains
always run the default loop).

* ``words(src, dst, ks, sp, swap, mode, state, pre, post)``: ECB, every
  whole-block chain of ``engines.chains`` and PCBC over one stream,
  returning the next chaining value (the generated ``chain_*`` kernels'
  contract; PCBC's is P ^ C of the last block).
* ``register(src, dst, ks, sp, reg, mode, pre, post)``: CFB-8 or CFB-1
  over bytes (CFB-1: each byte's bits most significant first, OpenSSL's
  ``des-cfb1``), returning the 64-bit shift register.

``ks`` is ``frame.frame_schedule``'s (Ku, Kt) words, ``sp`` ``frame.SPTRANS``.
"""

import numpy as np
from numba import njit

from .. import chains
from .kernels_gen import KERNELS, val

#: The default loop's one-block function (creates that variant's dispatchers, not its code).
block_table = KERNELS["table"].block

_INLINED_SOURCES_SHA256 = "8f11d29f3974c8a04bcaed7da0fa10dee187aadb8b44ca0183da7ec74214ec3d"  # see tools/stamp_kernel_sources.py

_ONE = np.uint64(1)
_B8 = np.uint64(8)
_B64 = np.uint64(64)


@njit(nogil=True, cache=True)
def words(src, dst, ks, sp, swap, mode, state, pre, post):
    """ECB, a whole-block chain or PCBC of whitened blocks; returns the next chaining value.

    ECB runs ECB_ENCRYPT's code for both directions (decryption's keys come reversed).
    """
    s = state
    ecb = mode == chains.ECB_ENCRYPT or mode == chains.ECB_DECRYPT
    for i in range(src.shape[0]):
        w = val(src[i], swap)
        # cipher input: P ^ C_prev (CBC encrypt), the block (ECB, CBC decrypt), else the state
        if mode == chains.CBC_ENCRYPT or mode == chains.PCBC_ENCRYPT:
            x = w ^ s
        elif ecb or mode == chains.CBC_DECRYPT or mode == chains.PCBC_DECRYPT:
            x = w
        else:
            x = s
        y = block_table(x ^ pre, ks, sp) ^ post
        if ecb:
            o = y
        elif mode == chains.CBC_ENCRYPT:  # C = E(P ^ C_prev)
            o = y
            s = y
        elif mode == chains.CBC_DECRYPT:  # (keys reversed) P = D(C) ^ C_prev
            o = y ^ s
            s = w
        elif mode == chains.PCBC_ENCRYPT:  # C = E(P ^ P_prev ^ C_prev)
            o = y
            s = w ^ y
        elif mode == chains.PCBC_DECRYPT:  # (keys reversed) P = D(C) ^ P_prev ^ C_prev
            o = y ^ s
            s = o ^ w
        else:  # a keystream: CFB, OFB, CTR
            o = w ^ y
            if mode == chains.CFB_ENCRYPT:
                s = o
            elif mode == chains.CFB_DECRYPT:
                s = w
            elif mode == chains.OFB:
                s = y
            else:
                s += _ONE
        dst[i] = val(o, swap)
    return s


@njit(nogil=True, cache=True)
def register(src, dst, ks, sp, reg, mode, pre, post):
    """CFB-8 or CFB-1 of whitened blocks over bytes src into dst (may be src); returns the register.

    One loop for both, so the block function is inlined once (half the
    compile): a byte is ``units`` cipher calls of ``width`` bits each, most
    significant first (CFB-8: one call of 8 bits; CFB-1: eight of 1 bit).
    """
    decrypt = mode == chains.CFB8_DECRYPT or mode == chains.CFB1_DECRYPT
    cfb1 = mode == chains.CFB1_ENCRYPT or mode == chains.CFB1_DECRYPT
    width = _ONE if cfb1 else _B8
    units = 8 if cfb1 else 1
    keep = _B64 - width  # the keystream unit: the top ``width`` bits of the cipher output
    mask = (_ONE << width) - _ONE
    for i in range(src.shape[0]):
        b = np.uint64(src[i])
        out = np.uint64(0)
        for j in range(units):
            shift = np.uint64(units - 1 - j) * width
            unit = (b >> shift) & mask
            o = unit ^ ((block_table(reg ^ pre, ks, sp) ^ post) >> keep)
            out |= o << shift
            reg = (reg << width) | (unit if decrypt else o)
        dst[i] = np.uint8(out)
    return reg
