"""Content hashing: what decides that two texts are the same entry."""

from __future__ import annotations

import hashlib
import re


def normalize_text(text: str) -> str:
    """Whitespace-collapsed text, for hashing."""
    return re.sub(r"\s+", " ", text).strip()


def content_hash(text: str) -> str:
    """Stable hash of an entry's content."""
    return hashlib.sha256(normalize_text(text).encode()).hexdigest()
