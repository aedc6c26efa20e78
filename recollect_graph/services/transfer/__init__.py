"""Export and import of a scope: the format's vocabulary and the service."""
