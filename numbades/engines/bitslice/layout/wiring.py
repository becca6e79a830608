"""Where the bitslice round code reads and writes: FIPS 46-3's permutations as row numbers.

IP, FP, E and P cost no work in the bitslice engine: they decide which row
of the work array (``lane_rounds``) an S-box input is read from and its output
is XORed into.  The round code (``simd_rounds``) and the IP/FP renamings
(``lane_rounds``) read these.
"""

from ....des import fips

# Work row k (0..63, FIPS bit k + 1 of the IP output L0 || R0) comes from
# plane 64 - IP[k]; FP = IP^-1 sends preoutput bit k + 1 back to that plane.
IP_PLANE = tuple(64 - n for n in fips.IP)
# E-output bit j + 1 (0-based j, S-box j // 6) reads R row E[j] - 1.
E_ROW = tuple(n - 1 for n in fips.E)
# S-box output bit q + 1 (box q // 4, o1 = MSB) lands in f-output row P^-1(q+1) - 1.
P_ROW = tuple(fips.P.index(q + 1) for q in range(32))
# crypt(3)'s salt bit i (0..23) swaps E-output bits i and i + 24 (0-based): the
# partner of E bit j reads R row E_PARTNER_ROW[j], under salt plane SALT_PLANE[j]
# (numbered from SALT_PLANE0, where the key planes end in a crypt pass).
E_PARTNER_ROW = tuple(fips.E[(j + 24) % 48] - 1 for j in range(48))
SALT_PLANE0 = 64
SALT_PLANE = tuple(SALT_PLANE0 + j % 24 for j in range(48))
