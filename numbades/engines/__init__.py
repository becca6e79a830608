"""The engines: every way numbades computes DES, behind one interface.

``base`` defines what an engine is (the :class:`~numbades.engines.base.Engine`
protocol) and the per-cipher key cache every engine draws its own key form
from; ``chains`` is the shared vocabulary of modes in one direction;
``registry`` maps engine names to engines.  Each engine lives in its own
subpackage (``table``, ``bitslice``) and imports only ``des``, ``chains`` and
``base``, never another engine.
"""
