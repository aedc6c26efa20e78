"""Services: one module per capability. Plain Python; every statement comes from ``cypher/``."""
