"""Shared kernels of the services: validation, time, hashing and row mapping."""
