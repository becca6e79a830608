"""The twelve table variants as engines: one :class:`TableEngine` per libdes option set.

Table engines serve every chain with the chaining inside the kernel (one
call per stream), so they are what ``auto`` uses for sequential work and
small inputs.  Their lookups depend on key and data bits: not constant-time.

While the default variant's kernels are compiling in another process (a
first call on an empty Numba cache; ``tuning.warmup`` starts that compile
through :attr:`TableEngine.compiling_aside`), its ECB, CTR and
CBC-decryption calls of up to :data:`NUMPY_MAX_BLOCKS` blocks run on
``numpy_rounds``, the same rounds vectorised by NumPy, instead of waiting
about two seconds for the compiler; every other call compiles as before.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import typeof

from ...des.keybits import passes
from .. import chains
from ..base import Whitened, read_only
from ..jit import loaded
from . import crypt3 as crypt3_kernels
from . import numpy_rounds, whitened
from .frame import SPTRANS, SPTRANS_FLAT, frame_schedule, frame_schedule_ready
from .kernels_gen import KERNELS, VariantKernels
from .row_keys import row_schedules

#: Rows whose key schedules are built at a time by ``key_rows`` (bounds its scratch).
ROWS_PER_CALL = 4096

#: The default loop (4 rounds per iteration), libdes's build without options.
DEFAULT = "table"

#: Largest call ``numpy_rounds`` serves while the kernels compile aside: 1 MiB, about
#: 60 ms there (0.5 ms per 4 KiB), against the two seconds of compiling the kernel.
NUMPY_MAX_BLOCKS = 1 << 17


class TableEngine:
    """One table variant (``table``, ``table+unroll+risc2+ptr``, ...)."""

    key_form = "frames"
    constant_time = False
    slow_to_compile = False  # about a second per kernel: compiled when first needed

    #: Set by ``tuning.warmup`` on the default variant: asked when a call finds the
    #: kernel it needs neither compiled nor cached; True while another process compiles
    #: this variant (starting it if need be), so ``numpy_rounds`` may serve the call.
    compiling_aside: Callable[[], bool] | None = None

    def __init__(self, name: str, ptr: bool):
        self.name = name
        self._table = SPTRANS_FLAT if ptr else SPTRANS
        self._loaded: set[str] = set()  # kernels found compiled or cached (they stay loaded)
        self._kernel_signatures: dict[str, tuple[object, tuple]] = {}

    @property
    def _kernels(self) -> VariantKernels:
        """This variant's dispatchers, created the first time the engine is used."""
        return KERNELS[self.name]

    def __repr__(self) -> str:
        return f"<table engine {self.name!r}>"

    @property
    def options(self) -> tuple[str, ...]:
        """libdes option words, e.g. ('UNROLL', 'RISC2', 'PTR'); () for the default loop."""
        return tuple(p.upper() for p in self.name.split("+")[1:])

    @property
    def ecb_kernel(self):
        """The compiled ECB dispatcher (for machine-code comparisons)."""
        return self._kernels.ecb

    def build_key_form(self, round_keys: np.ndarray) -> np.ndarray:
        if not frame_schedule_ready() and self._compiling_aside():  # as the kernels: see ecb
            return numpy_rounds.frame_schedule(round_keys)
        return frame_schedule(round_keys)

    def serves(self, chain: int) -> bool:
        return True

    def ready(self, chain: int) -> bool:
        """Whether the kernel serving ``chain`` is compiled or cached (whitened chains: True)."""
        kernel = "ecb" if chain in chains.ECB else ("cfb8" if chain in chains.CFB8 else
                                                    "chain" if chain in chains.BLOCK_CHAINS
                                                    else None)
        return kernel is None or self._kernel_loaded(kernel)

    def _kernel_loaded(self, kernel: str) -> bool:
        """Whether kernel ``ecb``, ``chain`` or ``cfb8`` runs without compiling (loads it if cached)."""
        if kernel in self._loaded:
            return True
        dispatcher, signature = self._signatures()[kernel]
        if loaded(dispatcher, signature):
            self._loaded.add(kernel)
            return True
        return False

    def _signatures(self) -> dict[str, tuple[object, tuple]]:
        """Kernel name -> (dispatcher, the one signature calls use), as ``compile_groups`` compiles."""
        if self._kernel_signatures:
            return self._kernel_signatures
        words, table = typeof(_READ_ONLY_WORDS), typeof(self._table)
        keys = typeof(np.zeros(32, np.uint32))  # build_key_form's, without running it
        out, flag = typeof(np.zeros(1, np.uint64)), typeof(True)
        kernels = self._kernels
        self._kernel_signatures = {
            "ecb": (kernels.ecb, (words, out, keys, table, flag)),
            "chain": (kernels.chain, (words, out, keys, table, flag, typeof(0),
                                      typeof(np.uint64(0)))),
            "cfb8": (kernels.cfb8, (typeof(_READ_ONLY_BYTES), typeof(np.zeros(1, np.uint8)),
                                    keys, table, typeof(np.uint64(0)), flag)),
        }
        return self._kernel_signatures

    def _numpy_serves(self, kernel: str, blocks: int) -> bool:
        """Whether ``numpy_rounds`` serves this call: few blocks, the kernel compiling aside."""
        return (blocks <= NUMPY_MAX_BLOCKS and not self._kernel_loaded(kernel)
                and self._compiling_aside())

    def _compiling_aside(self) -> bool:
        """:attr:`compiling_aside`'s answer (False where it is not set)."""
        return self.compiling_aside is not None and self.compiling_aside()

    def warm_up(self) -> None:
        for _, compile_group in self.compile_groups():
            compile_group()

    def compile_groups(self) -> list[tuple[str, Callable[[], None]]]:
        """``warm_up`` in steps, each a group of kernels: (name, compile it), in order.

        ``numbades compile`` times each step; a helper two groups share counts
        in the first.
        """
        signatures = self._signatures()

        def whitened_kernels() -> None:  # PCBC, CFB-1 and DESX: one tiny call of each
            form = Whitened(frame_schedule(np.zeros(16, np.uint64)), 0, 0)
            self.chain(chains.CBC_ENCRYPT, _READ_ONLY_WORDS, np.zeros(1, np.uint64), form, True, 0)
            self.cfb8(_READ_ONLY_BYTES, np.zeros(1, np.uint8), form, 0, False)

        def key_rows() -> None:  # key arrays: one tiny call each, as the modes layer makes
            rows = _READ_ONLY_WORDS.reshape(1, 1)
            for sets in (1, 3):
                self.key_rows(chains.ECB_ENCRYPT, rows, np.zeros((1, 1), np.uint64),
                              np.zeros((1, sets), np.uint64), passes(sets, False),
                              np.zeros(1, np.uint64), True)

        def compile_kernel(kernel: str) -> Callable[[], None]:
            dispatcher, signature = signatures[kernel]
            return lambda: dispatcher.compile(signature)

        def ecb() -> None:  # with the key form's kernel (never build_key_form's NumPy one)
            frame_schedule(np.zeros(16, np.uint64))
            compile_kernel("ecb")()

        groups: list[tuple[str, Callable[[], None]]] = [
            ("ecb", ecb),
            *((kernel, compile_kernel(kernel)) for kernel in ("chain", "cfb8")),
            ("whitened", whitened_kernels),
            ("key rows", key_rows),
        ]
        if self.name == DEFAULT:  # crypt(3) runs on the default loop only (policy.pick_crypt3)
            groups.append(("crypt3", crypt3_kernels.compile_signature))
        return groups

    def ecb(self, src, dst, keys, swap) -> None:
        if isinstance(keys, Whitened):
            _whitened_words(src, dst, keys, swap, chains.ECB_ENCRYPT, 0)
            return
        if (self.compiling_aside is not None and "ecb" not in self._loaded
                and self._numpy_serves("ecb", src.shape[0])):
            numpy_rounds.ecb(src, dst, keys, SPTRANS, swap)
            return
        self._kernels.ecb(src, dst, keys, self._table, swap)

    def chain(self, chain, src, dst, keys, swap, state) -> int:
        if src.shape[0] == 0:
            return state
        if isinstance(keys, Whitened) or chain in chains.PCBC:
            return _whitened_words(src, dst, keys, swap, chain, state)
        if (self.compiling_aside is not None and "chain" not in self._loaded
                and numpy_rounds.serves(chain) and self._numpy_serves("chain", src.shape[0])):
            return numpy_rounds.chain(chain, src, dst, keys, SPTRANS, swap, state)
        return int(self._kernels.chain(src, dst, keys, self._table, swap, chain,
                                       np.uint64(state)))

    def cfb8(self, src, dst, keys, register, decrypt) -> int:
        if isinstance(keys, Whitened):
            chain = chains.CFB8_DECRYPT if decrypt else chains.CFB8_ENCRYPT
            return _whitened_register(src, dst, keys, chain, register)
        return int(self._kernels.cfb8(src, dst, keys, self._table, np.uint64(register), decrypt))

    def cfb1(self, src, dst, keys, register, decrypt) -> int:
        chain = chains.CFB1_DECRYPT if decrypt else chains.CFB1_ENCRYPT
        return _whitened_register(src, dst, keys, chain, register)

    def many(self, chain, src, dst, keys, ivs, swap) -> None:
        if chain in chains.ECB:  # one long run of independent blocks
            self.ecb(src.reshape(-1), dst.reshape(-1), keys, swap)
            return
        for i in range(src.shape[0]):  # the messages one after another
            self.chain(chain, src[i], dst[i], keys, swap, int(ivs[i]))

    # A key per row (engines.base.KeyRowsEngine): the rows one after another.

    def serves_key_rows(self, chain: int) -> bool:
        return chain in chains.ECB or chain in chains.BLOCK_CHAINS

    def key_rows(self, chain, src, dst, key_words, passes, ivs, swap) -> None:
        if src.shape[1] == 0:
            return
        for first in range(0, src.shape[0], ROWS_PER_CALL):
            last = min(first + ROWS_PER_CALL, src.shape[0])
            ks2d = row_schedules(key_words, passes, first, last - first)
            self._kernels.rows(src[first:last], dst[first:last], ks2d, self._table, swap, chain,
                               ivs[first:last])

    # crypt(3) (engines.base.Crypt3Engine): one hash after another, the salt swapping E's bits.
    # One kernel (``crypt3.py``, its own round loop) shared by every table variant; ``auto``
    # reaches it through the default one.  It serves a few hashes, where the call's
    # overhead and one hash's chain of rounds, not the libdes loop shape, set the cost.

    def crypt3(self, key_words, salts, count, wide_salt) -> np.ndarray:
        return crypt3_kernels.crypt3(key_words, salts, count)

    # crypt3_one(key_word, salt, count) -> int: the kernel itself, as a call of one hash is
    # mostly call overhead.
    crypt3_one = staticmethod(crypt3_kernels.crypt3_one)


def _whitened(keys) -> Whitened:
    """A key form as a ``Whitened`` one (no whitening: pre = post = 0)."""
    return keys if isinstance(keys, Whitened) else Whitened(keys, 0, 0)


def _whitened_words(src, dst, keys, swap: bool, chain: int, state: int) -> int:
    """ECB, a whole-block chain or PCBC through ``whitened.words`` (the default loop)."""
    w = _whitened(keys)
    return int(whitened.words(src, dst, w.form, SPTRANS, swap, chain, np.uint64(state),
                              np.uint64(w.pre), np.uint64(w.post)))


def _whitened_register(src, dst, keys, chain: int, register: int) -> int:
    """CFB-8 or CFB-1 through ``whitened.register`` (the default loop)."""
    w = _whitened(keys)
    return int(whitened.register(src, dst, w.form, SPTRANS, np.uint64(register), chain,
                                 np.uint64(w.pre), np.uint64(w.post)))


# How inputs reach kernels (base.read_only): the signatures warm_up compiles.
_READ_ONLY_WORDS = read_only(np.zeros(1, np.uint64))
_READ_ONLY_BYTES = read_only(np.zeros(1, np.uint8))

ENGINES: tuple[TableEngine, ...] = tuple(TableEngine(n, "+ptr" in n) for n in KERNELS)
