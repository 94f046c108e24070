"""Search backends: embedded local index, in-memory fake, web APIs, and a snapshot recorder."""

from clarisearch.search.base import Page, SearchBackend, SearchHit

__all__ = ["Page", "SearchBackend", "SearchHit"]
