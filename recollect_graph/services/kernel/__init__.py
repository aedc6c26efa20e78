"""Shared kernels of the services: validation, time and hashing."""
