"""Entities and their relations as a graph."""
