"""Modes of operation over the engines: one chaining core, its ways in, two input shapes.

``arguments`` checks modes, IVs and padding options (the one place);
``stream`` is the chaining core, one direction of one mode fed in pieces of
any length (``feed_bytes``, ``feed_block_bytes``, ``feed_words``), which
asks ``tuning.policy`` for an engine per piece; ``padding`` is PKCS#7.
Input and ``out=`` come in two shapes, each normalised and checked in one
module before any kernel runs: ``buffers`` (one flat message) and ``rows``
(2-D: many messages, key-array rows, their IVs), which share only
``memory`` (plain arrays, byte order, writable views).  The ways in:
``oneshot`` (``encrypt``/``decrypt`` of whole buffers; ``small`` is its
short path for small ``bytes``), ``contexts`` (streaming ``update``/
``finalize``), ``batch`` (many equal-length messages, one IV each),
``key_rows`` (message i under key i) and ``crypt3`` (crypt(3) batches).
"""
