"""The cipher as one shared graph key, and the names and arrays of the layers built on it.

A cipher object is key material (its pickle is the round keys).  It enters
a task graph once, as a key of its own that every task refers to, so it is
serialised once per graph and sent once to each worker that needs it,
rather than once per task.  Graph key names never derive from key material:
Dask's ``tokenize`` would hash the pickled round keys into names that the
scheduler logs and the dashboard shows, so the cipher's key is named by a
random token instead, one per cipher object.
"""

from __future__ import annotations

import secrets
import weakref
from collections.abc import Mapping
from typing import Any

import dask
import dask.array as da
import numpy as np
from dask.base import tokenize
from dask.delayed import Delayed
from dask.highlevelgraph import HighLevelGraph

from ..cipher import DES, TripleDES

_CIPHER_KEYS: weakref.WeakKeyDictionary[Any, Delayed] = weakref.WeakKeyDictionary()


def shared_cipher(cipher: DES | TripleDES) -> Delayed:
    """The cipher as a single graph key (the same key every time for the same object)."""
    node = _CIPHER_KEYS.get(cipher)
    if node is None:
        name = f"numbades-cipher-{secrets.token_hex(16)}"
        node = _CIPHER_KEYS[cipher] = dask.delayed(cipher, name=name, pure=True)
    return node


def layer_name(what: str, *parts: Any) -> str:
    """A deterministic layer name from the inputs' names and the (non-secret) arguments."""
    return f"numbades-{what}-{tokenize(*parts)}"


def array(name: str, layer: Mapping, dependencies: list, chunks: tuple,
          dtype: np.dtype) -> da.Array:
    """A dask array whose chunk ``(name, i, ...)`` is computed by ``layer``."""
    graph = HighLevelGraph.from_collections(name, dict(layer), dependencies=dependencies)
    return da.Array(graph, name, chunks, meta=np.empty((0,) * len(chunks), dtype=dtype))
