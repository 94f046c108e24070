"""clarisearch: clarification-aware deep search, evaluated end to end."""

__version__ = "0.1.0"
