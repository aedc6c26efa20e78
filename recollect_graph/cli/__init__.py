"""The ``recollect-graph`` command line: a thin click layer over the library."""
