"""Streaming contexts: ``encryptor(mode, iv=...)`` / ``decryptor(...)``.

Work in progress; the public surface is ``StreamingMixin``.
"""

from __future__ import annotations


class StreamingMixin:
    """Adds ``encryptor()`` and ``decryptor()`` to a cipher object."""
