"""The standard: FIPS 46-3's tables and everything derived from them that no engine owns.

``fips`` holds the only hand-entered constants (exactly as printed in the
standard); ``bits`` the slow, obviously-correct bit permutations over them;
``keyschedule_ref`` the key schedule written straight from the standard, and
``keyschedule`` the fast one every engine starts from (16 round keys of 48
bits); ``keys`` the parity and weak-key helpers.  Nothing here imports an
engine, a mode or the public layer.
"""
