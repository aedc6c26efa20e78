"""Services: one subpackage per capability, plain Python; every statement comes from ``cypher/``.

``kernel`` holds what all of them share (validation, time, hashing); the others are named for
what they do: ``knowledge``, ``claims``, ``search``, ``context``, ``memories``, ``sessions``,
``documents``, ``entities``, ``topics``, ``transfer``, ``admin``. ``docs/architecture.md`` lists
every module.
"""
