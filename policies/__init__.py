"""Scheduling policies: decision logic on a read-only view, one module per family."""
