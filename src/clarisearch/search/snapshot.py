"""Freeze live search results so a web run can be replayed exactly (the DiscoBench appendix H problem).

`record` passes calls through and appends every result to a JSONL snapshot; `replay` answers
only from the snapshot and fails loudly on anything it has not seen.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

from clarisearch.runner.store import append_jsonl, read_jsonl
from clarisearch.search.base import Page, SearchBackend, SearchError, SearchHit


class SnapshotSearch:
    def __init__(self, path: str | Path, mode: Literal["record", "replay"], inner: SearchBackend | None = None):
        if mode == "record" and inner is None:
            raise ValueError("record mode needs a live backend to record from")
        self.path = Path(path)
        self.mode = mode
        self.inner = inner
        self.name = f"snapshot({inner.name if inner else 'replay'})"
        self._searches: dict[tuple[str, int], list[SearchHit]] = {}
        self._pages: dict[str, Page | None] = {}
        for record in read_jsonl(self.path):
            if record["kind"] == "search":
                self._searches[(record["query"], record["k"])] = [SearchHit(**h) for h in record["hits"]]
            else:
                self._pages[record["url"]] = Page(**record["page"]) if record["page"] else None
        self.fingerprint = self._fingerprint()

    def _fingerprint(self) -> str:
        if self.mode == "record":
            return f"snapshot-record:{self.inner.fingerprint if self.inner else ''}"
        digest = hashlib.sha256(self.path.read_bytes() if self.path.exists() else b"").hexdigest()[:16]
        return f"snapshot:{digest}"

    async def search(self, queries: list[str], k: int = 10) -> list[list[SearchHit]]:
        missing = [q for q in queries if (q, k) not in self._searches]
        if missing and self.mode == "replay":
            raise SearchError(f"snapshot {self.path} has no results for query {missing[0]!r} (k={k})")
        if missing and self.inner is not None:
            fresh = await self.inner.search(missing, k)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            for query, hits in zip(missing, fresh, strict=True):
                self._searches[(query, k)] = hits
                append_jsonl(self.path, {"kind": "search", "query": query, "k": k, "hits": [h.to_dict() for h in hits]})
        return [self._searches[(q, k)] for q in queries]

    async def visit(self, url_or_id: str) -> Page | None:
        if url_or_id not in self._pages:
            if self.mode == "replay" or self.inner is None:
                raise SearchError(f"snapshot {self.path} has no page for {url_or_id!r}")
            page = await self.inner.visit(url_or_id)
            self._pages[url_or_id] = page
            append_jsonl(self.path, {"kind": "visit", "url": url_or_id,
                                     "page": json.loads(json.dumps(page.__dict__)) if page else None})
        return self._pages[url_or_id]
