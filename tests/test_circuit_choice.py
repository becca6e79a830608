"""Which S-box circuits the bitslice kernels run, and both sets inside the real kernels.

The rule (``cpu.target``) picks the 3-input-LUT programs where the compile
target has AVX-512 and the 2-input circuits elsewhere, so a host only ever
runs one set, on explicit vectors (``simd_rounds``) on both targets.  The
subprocess test builds the kernels afresh with the *other* set patched in and
checks them against pycryptodome, so both sets are tested in the kernels on
every host.
"""

import os
import subprocess
import sys
import textwrap

import pytest

from numbades.engines.bitslice.cpu import target
from numbades.engines.bitslice.rounds import simd_rounds
from numbades.engines.bitslice.sboxes import (
    dispatch,
    sbox_circuits_gen,
    sbox_folded_gen,
    sbox_luts_gen,
)


def test_the_rule_follows_avx512_foundation():
    assert dispatch.circuits(target.targets_avx512(["+avx2", "-avx512f"])) is sbox_circuits_gen
    assert dispatch.circuits(target.targets_avx512(["+avx2", "+avx512f", "+avx512bw"])) is sbox_luts_gen
    assert dispatch.circuits(target.targets_avx512([])) is sbox_circuits_gen


def test_this_process_runs_the_set_its_target_calls_for():
    expected = dispatch.circuits(target.targets_avx512(target.target_features()))
    assert dispatch.circuits() is expected
    assert simd_rounds._sbox.py_func.circuits == tuple(dispatch.vector_circuits())
    if expected is sbox_circuits_gen:
        assert simd_rounds._sbox.py_func.circuits == tuple(
            getattr(expected, f"s{i + 1}") for i in range(8))


def test_explicit_vectors_run_ternary_calls_with_avx512_and_the_gates_without():
    assert dispatch.vector_circuits(True) == [getattr(sbox_luts_gen, f"ternary_s{i + 1}")
                                              for i in range(8)]
    assert dispatch.vector_circuits(False) == [getattr(sbox_circuits_gen, f"s{i + 1}")
                                               for i in range(8)]


def test_numba_cpu_features_decide_the_set(tmp_path):
    code = "from numbades.engines.bitslice.sboxes import dispatch; print(dispatch.circuits().__name__)"
    names = {}
    for label, features in (("avx512", "+avx2,+avx512f"), ("avx2", "+avx2,-avx512f")):
        env = dict(os.environ, NUMBA_CPU_NAME="generic", NUMBA_CPU_FEATURES=features,
                   NUMBA_CACHE_DIR=str(tmp_path))
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=300, check=True)
        names[label] = done.stdout.strip().rsplit(".", 1)[-1]
    assert names == {"avx512": "sbox_luts_gen", "avx2": "sbox_circuits_gen"}


#: Both subprocess scripts start with this: ECB, CTR and 3DES CBC decryption on
#: the bitslice engine against pycryptodome.  ``numbades`` is passed in, so a
#: script can patch the kernels before it imports the package.
_PYCRYPTODOME_CHECKS = textwrap.dedent("""
    import numpy as np
    from Crypto.Cipher import DES, DES3

    def standard_checks(numbades, rng, blocks):
        key8, key24, iv = rng.bytes(8), rng.bytes(24), rng.bytes(8)
        data = rng.integers(0, 256, 8 * blocks, dtype=np.uint8)
        raw = data.tobytes()
        des = numbades.DES(key8, variant="bitslice")
        tdes = numbades.TripleDES(key24, variant="bitslice")
        checks = {
            "des-ecb": (des.encrypt(data).tobytes(), DES.new(key8, DES.MODE_ECB).encrypt(raw)),
            "des-ctr": (des.encrypt(data, "ctr", iv=iv).tobytes(),
                        DES.new(key8, DES.MODE_CTR, nonce=b"",
                                initial_value=int.from_bytes(iv, "big")).encrypt(raw)),
            "3des-cbc-decrypt": (tdes.decrypt(data, "cbc", iv=iv).tobytes(),
                                 DES3.new(key24, DES3.MODE_CBC, iv=iv).decrypt(raw)),
        }
        return des, key8, iv, raw, checks

    def report(checks):
        for name, (got, want) in checks.items():
            print(name, got == want)
""")
STANDARD_CHECKS_PASS = {"des-ecb": "True", "des-ctr": "True", "3des-cbc-decrypt": "True"}


_OTHER_SET_IN_THE_KERNELS = _PYCRYPTODOME_CHECKS + textwrap.dedent("""
    from numbades.engines.bitslice.rounds import lane_rounds, simd_rounds
    from numbades.engines.bitslice.sboxes import dispatch, sbox_circuits_gen, sbox_luts_gen

    # Patched before anything compiles (a fresh cache directory): every kernel built
    # in this process inlines the set this host would not choose, as ``& | ^ ~``
    # expressions on ``simd.Vector`` operators; under one key too, as it is (NOTs
    # included), so no key mask is complemented
    other = sbox_circuits_gen if dispatch.circuits() is sbox_luts_gen else sbox_luts_gen
    simd_rounds._sbox = dispatch.sbox_function([getattr(other, f"s{i + 1}") for i in range(8)])
    simd_rounds._folded_sbox = simd_rounds._sbox
    lane_rounds._INPUT_COMPLEMENT = np.zeros(48, dtype=np.uint64)

    import numbades
    rng = np.random.default_rng(7)
    *_, checks = standard_checks(numbades, rng, 2500)  # a full pass and a short one
    keys = rng.integers(0, 256, (300, 8), dtype=np.uint8)
    rows = rng.integers(0, 256, (300, 8), dtype=np.uint8)
    lanes = numbades.DESArray(keys).encrypt(rows)
    checks["key-per-lane-ecb"] = (
        lanes.tobytes(),
        b"".join(DES.new(k.tobytes(), DES.MODE_ECB).encrypt(r.tobytes()) for k, r in zip(keys, rows)),
    )
    print(other.__name__.rsplit(".", 1)[-1])
    report(checks)
""")


def test_the_other_circuit_set_runs_correctly_in_the_kernels(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), NUMBADES_BACKGROUND_COMPILE="0",
               NUMBADES_CACHE_DIR=str(tmp_path / "numbades"))
    done = subprocess.run([sys.executable, "-c", _OTHER_SET_IN_THE_KERNELS], env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.split("\n")
    other = lines[0]
    assert other in ("sbox_luts_gen", "sbox_circuits_gen")
    assert other != dispatch.circuits().__name__.rsplit(".", 1)[-1]
    results = dict(line.split() for line in lines[1:] if line)
    assert results == {
        **STANDARD_CHECKS_PASS,
        "key-per-lane-ecb": "True",
    }


_AVX512_OFF = ("avx512", "amx", "avxvnni", "avxifma", "avxneconvert", "evex512", "avx10")

_AVX2_BUILD = _PYCRYPTODOME_CHECKS + textwrap.dedent("""
    import numbades
    from numbades.engines.bitslice.cpu import simd
    from numbades.engines.bitslice.sboxes import dispatch
    from numbades.tuning import policy

    print("build", dispatch.circuits().__name__.rsplit(".", 1)[-1], simd.LANES_PER_VECTOR,
          policy.BITSLICE_THRESHOLD_BLOCKS)
    rng = np.random.default_rng(11)
    des, key8, iv, raw, checks = standard_checks(numbades, rng, 4500)  # two full passes + a short one
    in_place = np.frombuffer(bytearray(raw), dtype=np.uint8)
    des.decrypt(in_place, "cbc", iv=iv, out=in_place)
    checks["des-cbc-decrypt-in-place"] = (in_place.tobytes(),
                                          DES.new(key8, DES.MODE_CBC, iv=iv).decrypt(raw))
    in_place = np.frombuffer(bytearray(raw), dtype=np.uint8)
    des.decrypt(in_place, "cfb", iv=iv, out=in_place)
    checks["des-cfb-decrypt-in-place"] = (
        in_place.tobytes(), DES.new(key8, DES.MODE_CFB, iv=iv, segment_size=64).decrypt(raw))
    keys = rng.integers(0, 256, (300, 8), dtype=np.uint8)  # a key per lane
    rows = rng.integers(0, 256, (300, 8), dtype=np.uint8)
    checks["key-per-lane-ecb"] = (
        numbades.DESArray(keys, variant="bitslice").encrypt(rows).tobytes(),
        b"".join(DES.new(k.tobytes(), DES.MODE_ECB).encrypt(r.tobytes()) for k, r in zip(keys, rows)),
    )
    report(checks)

    # The round kernel, compiled in this process (a fresh cache): its vector logic
    # instructions, by mnemonic and register width.
    import collections
    import re

    from numbades.engines.bitslice.rounds import lane_rounds
    asm = "\\n".join(lane_rounds.crypt_work.inspect_asm().values())
    ops = collections.Counter(
        (m.group(1), "zmm" if "zmm" in m.group(2) else "ymm" if "ymm" in m.group(2) else "xmm")
        for m in re.finditer(r"^\\s+(vpandn|vpand|vpor|vpxor|vpternlogq)\\s+(.*)$", asm, re.M))
    print("asm", *(f"{op}:{width}={n}" for (op, width), n in sorted(ops.items())))
""")


@pytest.mark.skipif("+avx2" not in target.target_features(),
                    reason="runs AVX2 code, so needs an AVX2 host")
def test_an_avx2_build_runs_the_fused_passes_correctly(tmp_path):
    """AVX-512 switched off in Numba's target features: 2-input circuits on 256-bit explicit
    vectors in the rounds (one key and a key per lane) and in the fused passes (their
    AVX2-only code, CBC and CFB decryption's backward passes in place included), checked
    against pycryptodome; the round kernel's assembly, one ymm instruction per gate."""
    features = ",".join(
        "-" + f[1:] if f.startswith("+") and f[1:].startswith(_AVX512_OFF) else f
        for f in target.target_features()
    )
    env = dict(os.environ, NUMBA_CPU_NAME="haswell", NUMBA_CPU_FEATURES=features,
               NUMBA_CACHE_DIR=str(tmp_path), NUMBADES_BACKGROUND_COMPILE="0",
               NUMBADES_CACHE_DIR=str(tmp_path / "numbades"))
    done = subprocess.run([sys.executable, "-c", _AVX2_BUILD], env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    first, *lines, asm = done.stdout.strip().split("\n")
    # 2-input circuits, 256-bit vectors, and auto's threshold for an AVX2 pass
    assert first == "build sbox_circuits_gen 4 384"
    # The round kernel's body is two rounds (``simd_rounds.one_key_rounds_on``), each
    # box's gates once: one vpand/vpandn/vpor/vpxor on a ymm register per gate (376
    # gates a round: ``sbox_folded_gen``, the circuits with their NOTs folded into the
    # key masks), plus 6 key XORs and 4 XORs into L per box, so 2 * (376 + 8 * 10) =
    # 912; LLVM may add a few (918 with Numba 0.68.1; 944 before the NOTs were
    # folded).  No zmm code and no ternary logic; ``x & ~y`` as vpandn.
    counts = {op: int(n) for op, n in (field.split("=") for field in asm.split()[1:])}
    assert set(counts) <= {"vpand:ymm", "vpandn:ymm", "vpor:ymm", "vpxor:ymm"}, asm
    assert counts.get("vpandn:ymm", 0) >= 100, asm
    gates = 2 * (sum(sbox_folded_gen.GATE_COUNTS) + 8 * 10)
    assert gates <= sum(counts.values()) <= gates + 16, asm
    assert dict(line.split() for line in lines) == {
        **STANDARD_CHECKS_PASS, "des-cbc-decrypt-in-place": "True",
        "des-cfb-decrypt-in-place": "True", "key-per-lane-ecb": "True",
    }
