"""Metrics: pure functions over episode results (CTS restoration, Disco checkpoints, statistics)."""
