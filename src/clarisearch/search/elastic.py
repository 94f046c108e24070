"""Scale-out search: an Elasticsearch/OpenSearch index over HTTP (httpx), same protocol as the local one.

Spec: `elastic:http://host:9200/INDEX`. BM25 over title (boosted) and text; ties broken by doc id
(a keyword field) so rankings stay deterministic; snippets are computed client-side exactly as for the
local index. An API key, if needed, is read from the environment variable ELASTIC_API_KEY.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

import httpx

from clarisearch.schema.corpus import CorpusDoc
from clarisearch.search.base import Page, SearchError, SearchHit
from clarisearch.search.snippets import best_passage

MAPPINGS = {"properties": {"id": {"type": "keyword"}, "url": {"type": "keyword"}, "title": {"type": "text"},
                           "text": {"type": "text"}, "lang": {"type": "keyword"}}}


def parse_target(target: str) -> tuple[str, str]:
    """`http://host:9200/index` -> (base url, index name)."""
    base, _, index = target.rstrip("/").rpartition("/")
    if not base.startswith(("http://", "https://")) or not index:
        raise ValueError(f"elastic search target {target!r} must look like http://host:9200/INDEX")
    return base, index


def _headers() -> dict[str, str]:
    key = os.environ.get("ELASTIC_API_KEY")
    return {"Authorization": f"ApiKey {key}"} if key else {}


class ElasticSearch:
    name = "elastic"

    def __init__(self, target: str, client: httpx.AsyncClient | None = None, snippet_chars: int = 320):
        self.base, self.index = parse_target(target)
        self.fingerprint = f"elastic:{self.base}/{self.index}"
        self._client = client or httpx.AsyncClient(timeout=60, headers=_headers())
        self.snippet_chars = snippet_chars

    async def _call(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        try:
            response = await self._client.request(method, f"{self.base}/{self.index}{path}", json=body)
        except httpx.HTTPError as exc:
            raise SearchError(f"elastic request failed: {type(exc).__name__}: {exc}") from exc
        if response.status_code == 404:
            return {}
        if response.status_code >= 400:
            raise SearchError(f"elastic {method} {path}: HTTP {response.status_code}: {response.text[:300]}")
        data: dict[str, Any] = response.json()
        return data

    async def _search_one(self, query: str, k: int) -> list[SearchHit]:
        body = {"size": k, "query": {"multi_match": {"query": query, "fields": ["title^2", "text"]}},
                "sort": [{"_score": "desc"}, {"id": "asc"}], "track_scores": True}
        data = await self._call("POST", "/_search", body)
        hits = []
        for rank, hit in enumerate(data.get("hits", {}).get("hits", []), start=1):
            src = hit.get("_source", {})
            hits.append(SearchHit(doc_id=str(src.get("id", hit.get("_id"))), title=src.get("title", ""),
                                  url=src.get("url", ""), score=float(hit.get("_score") or 0.0), rank=rank,
                                  snippet=best_passage(src.get("text", ""), query, self.snippet_chars,
                                                       title=src.get("title", ""))))
        return hits

    async def search(self, queries: list[str], k: int = 10) -> list[list[SearchHit]]:
        return [await self._search_one(q, k) for q in queries]

    async def visit(self, url_or_id: str) -> Page | None:
        doc = await self._call("GET", f"/_doc/{url_or_id}") if "/" not in url_or_id else {}
        src = doc.get("_source") if doc.get("found") else None
        if src is None:
            data = await self._call("POST", "/_search", {"size": 1, "query": {"term": {"url": url_or_id}}})
            found = data.get("hits", {}).get("hits", [])
            src = found[0]["_source"] if found else None
        if src is None:
            return None
        return Page(str(src.get("id")), src.get("url", ""), src.get("title", ""), src.get("text", ""))

    async def build(self, docs: Iterable[CorpusDoc], batch: int = 1000) -> int:
        """(Re)create the index with our mapping and bulk-load the corpus; returns the document count."""
        await self._call("DELETE", "")
        await self._call("PUT", "", {"mappings": MAPPINGS})
        count, lines = 0, []
        for doc in docs:
            source = {"id": doc.id, "url": doc.effective_url(), "title": doc.title, "text": doc.text, "lang": doc.lang or ""}
            lines += [json.dumps({"index": {"_id": doc.id}}), json.dumps(source, ensure_ascii=False)]
            count += 1
            if len(lines) >= 2 * batch:
                await self._bulk(lines)
                lines = []
        if lines:
            await self._bulk(lines)
        await self._call("POST", "/_refresh")
        return count

    async def _bulk(self, lines: list[str]) -> None:
        try:
            response = await self._client.post(f"{self.base}/{self.index}/_bulk", content="\n".join(lines) + "\n",
                                               headers={"Content-Type": "application/x-ndjson"})
        except httpx.HTTPError as exc:
            raise SearchError(f"elastic bulk failed: {exc}") from exc
        data = response.json() if response.status_code < 400 else {"errors": True}
        if response.status_code >= 400 or data.get("errors"):
            raise SearchError(f"elastic bulk load rejected documents: {response.text[:300]}")
