"""Hybrid search over a scope and its query-side text processing."""
