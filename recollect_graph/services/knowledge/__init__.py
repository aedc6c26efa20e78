"""The knowledge core: entries, lifecycle, undoable changes, provenance, access, consolidation."""
