"""Engine registry: every engine by name.

Adding an engine means one module group under ``engines/`` implementing
:class:`~numbades.engines.base.Engine`, and one line here.
"""

from __future__ import annotations

from .base import Crypt3Engine, Engine, KeyRowsEngine
from .bitslice.engine import ENGINE as BITSLICE_ENGINE
from .table.engine import DEFAULT as DEFAULT_TABLE
from .table.engine import ENGINES as TABLE_ENGINES

#: Every engine by name: the twelve table variants first, then bitslice.
ENGINES: dict[str, Engine] = {
    **{engine.name: engine for engine in TABLE_ENGINES},
    BITSLICE_ENGINE.name: BITSLICE_ENGINE,
}

#: Engines that run a key per row (``base.KeyRowsEngine``): every engine.
KEY_ROWS_ENGINES: dict[str, KeyRowsEngine] = {
    name: engine for name, engine in ENGINES.items() if hasattr(engine, "key_rows")
}
#: Engines that compute crypt(3) hashes (``base.Crypt3Engine``): bitslice.
CRYPT3_ENGINES: dict[str, Crypt3Engine] = {
    name: engine for name, engine in ENGINES.items() if hasattr(engine, "crypt3")
}

BITSLICE = BITSLICE_ENGINE.name
#: The table variant ``auto`` uses: libdes's default loop.
DEFAULT_TABLE_VARIANT = DEFAULT_TABLE


def variants() -> list[str]:
    """Every engine name, table variants first, then ``bitslice``."""
    return list(ENGINES)


def get(name: str) -> Engine:
    """The engine called ``name`` (``KeyError`` if there is none)."""
    return ENGINES[name]


def options(name: str) -> tuple[str, ...]:
    """libdes-style option words of an engine, e.g. ('UNROLL', 'RISC2', 'PTR'), ('BITSLICE',)."""
    engine = ENGINES[name]
    return getattr(engine, "options", (name.upper(),))
