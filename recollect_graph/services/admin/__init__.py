"""Administration: statistics, the doctor and the invariant checks."""
