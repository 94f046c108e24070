"""The search protocol: several queries per call, top hits each; visit returns page text."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class SearchHit:
    doc_id: str
    title: str
    url: str
    snippet: str
    score: float = 0.0
    rank: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Page:
    doc_id: str
    url: str
    title: str
    text: str


class SearchError(Exception):
    """An infrastructure failure of the backend (not "no results")."""


@runtime_checkable
class SearchBackend(Protocol):
    """`fingerprint` identifies the retrieval surface (corpus + ranking) for run configs."""

    name: str
    fingerprint: str

    async def search(self, queries: list[str], k: int = 10) -> list[list[SearchHit]]: ...

    async def visit(self, url_or_id: str) -> Page | None: ...
