"""Topics: clustering a scope's entries and documents (pure parts and the service)."""
