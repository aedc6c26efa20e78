"""Database layer: driver, transactions, cypher files, schema, and the embedded server."""
