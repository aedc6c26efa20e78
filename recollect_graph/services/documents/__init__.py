"""Documents: reading files, the per-document pipeline, the document service and the demo loader."""
