"""What an engine is: the protocol every engine implements, and the key cache they share.

An engine computes DES (16 round keys) or Triple-DES-EDE (48) over raw
64-bit words.  It never sees a mode name or a Python buffer: the modes layer
hands it 1-D (or, for many messages, 2-D) C-contiguous uint64 arrays, a
*chain* code from ``engines.chains``, and the key form it built for itself.

Words and byte order: ``swap=True`` means each word is its block value
byte-swapped (raw little-endian memory holding the block's bytes);
``swap=False`` means each word is the block value.  Chaining values (IVs,
counters) cross the interface as Python ints holding block values.  Inputs
arrive as read-only views (:func:`read_only`, the calling convention), so
each kernel has one signature, which ``warm_up`` compiles and ``ready``
looks for.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

import numpy as np

from . import chains


def read_only(src: np.ndarray) -> np.ndarray:
    """``src`` as a read-only view: how every caller hands an engine its input.

    Numba compiles one version of a kernel per argument type, and a
    read-only array (the view of a ``bytes`` input) is another type than a
    writable one.  Handing every input over read-only gives each kernel one
    signature, so it compiles (and loads from the cache) once, whatever the
    input kind.  Kernels never write their input, and read-only does not let
    Numba assume it does not alias the output, so in-place calls stay right.
    """
    if not src.flags.writeable:
        return src
    view = src.view()
    view.flags.writeable = False
    return view


class Engine(Protocol):
    """The contract of an engine (a table variant, bitslice, ...).

    Every method may be given ``dst is src`` (in place); partial overlap
    never reaches an engine (the modes layer resolves it).
    """

    #: The engine's public name, as listed by ``numbades.variants()``.
    name: str
    #: Name of the key form it uses; engines sharing a form share one cached copy.
    key_form: str
    #: No memory access or branch depends on key or data bits.
    constant_time: bool
    #: Its kernels take long enough to compile (tens of seconds cold) that
    #: ``auto`` compiles them in the background rather than make a caller wait.
    slow_to_compile: bool

    def build_key_form(self, round_keys: np.ndarray) -> Any:
        """This engine's form of round keys given in application order (uint64 array)."""
        ...

    def serves(self, chain: int) -> bool:
        """Whether the engine has a path for ``chain`` (``engines.chains``)."""
        ...

    def ready(self, chain: int) -> bool:
        """Whether ``chain`` runs without compiling: in memory, or loaded now from Numba's cache."""
        ...

    def warm_up(self) -> None:
        """Compile (or load from the cache) every kernel the engine runs, for the signatures used."""
        ...

    def ecb(self, src: np.ndarray, dst: np.ndarray, keys: Any, swap: bool) -> None:
        """dst[i] = E_keys(src[i]) for every word (decryption: reversed keys)."""
        ...

    def chain(self, chain: int, src: np.ndarray, dst: np.ndarray, keys: Any, swap: bool,
              state: int) -> int:
        """A whole-block chain over one stream; returns the next chaining value.

        ``state`` is the IV / previous ciphertext (CBC, CFB), the previous
        keystream block (OFB) or the next counter (CTR, mod 2**64).
        """
        ...

    def cfb8(self, src: np.ndarray, dst: np.ndarray, keys: Any, register: int,
             decrypt: bool) -> int:
        """CFB-8 over bytes (uint8 arrays); returns the 64-bit shift register."""
        ...

    def cfb1(self, src: np.ndarray, dst: np.ndarray, keys: Any, register: int,
             decrypt: bool) -> int:
        """CFB-1 over bytes (each byte's bits most significant first); returns the register."""
        ...

    def many(self, chain: int, src: np.ndarray, dst: np.ndarray, keys: Any, ivs: np.ndarray,
             swap: bool) -> None:
        """Independent equal-length messages, one per row of (messages, blocks) word arrays.

        ``chain`` is an ECB chain or one of ``chains.BLOCK_CHAINS``; ``ivs`` is
        a (messages,) uint64 array of block values (unused for ECB).
        """
        ...


#: DES passes of one block as (key set, reversed) pairs, in application order
#: (``des.keybits.passes``): how a key array says direction and Triple-DES.
Passes = tuple[tuple[int, bool], ...]


class KeyRowsEngine(Protocol):
    """A key per row: the capability behind ``DESArray`` / ``TripleDESArray``.

    A sibling of :class:`Engine` (every registered engine implements both):
    row ``i`` of the data is one message under key ``i``.  Keys cross the
    interface as values, never as round keys: ``key_words`` is a (rows,
    key sets) uint64 array of 64-bit key values (1 set for DES, 3 for EDE),
    and ``passes`` says in which order and direction the sets are applied,
    so direction and Triple-DES live in ``passes`` as they live in the round
    keys' order for :class:`Engine`.  Each engine derives its own key form
    (frame schedules per row; key planes per pass) from these.
    """

    name: str

    def serves_key_rows(self, chain: int) -> bool:
        """Whether the engine runs ``chain`` with a key per row (ECB and the block chains)."""
        ...

    def key_rows(self, chain: int, src: np.ndarray, dst: np.ndarray, key_words: np.ndarray,
                 passes: Passes, ivs: np.ndarray, swap: bool) -> None:
        """Row i of C-contiguous (rows, blocks) word arrays through ``chain`` under key i.

        ``ivs`` is a (rows,) uint64 array of block values (unused for ECB);
        ``dst`` may be ``src``.
        """
        ...


class Crypt3Engine(Protocol):
    """crypt(3)'s DES: a salted, iterated encryption of the zero block, a key per row."""

    name: str

    def crypt3(self, key_words: np.ndarray, salts: np.ndarray, count: int,
               wide_salt: bool) -> np.ndarray:
        """(rows,) uint64 block values: E_key^count(0) with E's bits swapped by each salt.

        ``key_words`` and ``salts`` are (rows,) uint64; salt bit ``i`` (0..23)
        swaps E-expansion output bits ``i`` and ``i + 24`` (0-based).
        ``wide_salt=False`` promises salts below 2**12 (traditional crypt),
        which needs fewer selects per round.
        """
        ...

    def crypt3_one(self, key_word: int, salt: int, count: int) -> int:
        """``crypt3`` of one key and salt, as an int block value: the short path of one hash.

        ``key_word`` is the 64-bit key value as a signed int64 (two's
        complement), so that a kernel can take it through Numba's fast path.
        """
        ...


class Whitened(NamedTuple):
    """A key form with DESX whitening: the block function is ``E(x ^ pre) ^ post``.

    ``pre`` and ``post`` are block values, already swapped for the chains
    that run the cipher backwards.  Only engines that serve DESX (the table
    engines) are ever handed one (``tuning.policy.resolve_desx``).
    """

    form: Any
    pre: int
    post: int


class Schedule:
    """Round keys of one cipher in both directions, and each engine's key form, built on demand.

    Engines with the same ``key_form`` share one copy (the twelve table
    variants all use the same (Ku, Kt) words).  ``whitening`` (DESX's K1, K2
    as block values) wraps every form in :class:`Whitened`.  Pickles as its
    round keys and whitening only: the key forms are rebuilt where they are used.
    """

    def __init__(self, encrypt_keys: np.ndarray, whitening: tuple[int, int] | None = None):
        # Writable on purpose: a read-only array is another Numba type (another compile).
        self.round_keys = np.ascontiguousarray(encrypt_keys, dtype=np.uint64)
        self.whitening = whitening
        self._forms: dict[tuple[str, bool], Any] = {}

    @property
    def rounds(self) -> int:
        """16 for DES, 48 for Triple-DES."""
        return self.round_keys.shape[0]

    def form(self, engine: Engine, chain: int) -> Any:
        """The key form ``engine`` needs for ``chain`` (reversed keys when it runs backwards)."""
        backwards = chain in chains.BACKWARDS
        key = (engine.key_form, backwards)
        form = self._forms.get(key)
        if form is None:
            keys = self.round_keys[::-1].copy() if backwards else self.round_keys
            form = engine.build_key_form(keys)
            if self.whitening is not None:  # decryption: D(y ^ post) ^ pre
                pre, post = self.whitening[::-1] if backwards else self.whitening
                form = Whitened(form, pre, post)
            self._forms[key] = form
        return form

    def __getstate__(self) -> dict:
        return {"round_keys": self.round_keys, "whitening": self.whitening}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["round_keys"], state.get("whitening"))
