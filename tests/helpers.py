"""Helpers shared by the tests."""

from __future__ import annotations

import os
from pathlib import Path

from recollect_graph import Settings
from recollect_graph.db.server import free_port


def make_settings(base: Path, **overrides: object) -> Settings:
    """Settings for a throwaway server under ``base`` (the user's launcher build is reused)."""
    values: dict[str, object] = {
        "data_dir": base / "data",
        "config_dir": base / "config",
        "bolt_port": free_port(),
        "http_port": free_port(),
        "heap_mb": 768,
        "pagecache_mb": 128,
        "cache_dir": os.environ.get("RECOLLECT_CACHE_DIR"),
    }
    values.update(overrides)
    return Settings.from_env(environ={}, **values)
