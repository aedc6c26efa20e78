"""Lore's dialect: titled memories, feedback, link suggestions, the sweep queue and reflections."""
