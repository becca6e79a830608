"""Modes of operation over the engines: one chaining core, three ways in.

``buffers`` normalises every input and ``out=`` (the one place that
protects the unchecked kernels); ``arguments`` checks modes, IVs and padding
options; ``stream`` is the chaining core, one direction of one mode fed in
pieces of any length, which asks ``tuning.policy`` for an engine per piece;
``padding`` is PKCS#7.  Over the core: ``oneshot`` (``encrypt``/``decrypt``
of whole buffers), ``contexts`` (streaming ``update``/``finalize``) and
``batch`` (many equal-length messages, one IV each).
"""
