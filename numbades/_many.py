"""Many-message batch API: ``encrypt_many`` / ``decrypt_many``.

Work in progress; the public surface is ``BatchMixin``.
"""

from __future__ import annotations


class BatchMixin:
    """Adds ``encrypt_many()`` and ``decrypt_many()`` to a cipher object."""
