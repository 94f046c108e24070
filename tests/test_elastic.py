"""The Elasticsearch/OpenSearch backend against an in-process fake cluster (httpx MockTransport)."""

from __future__ import annotations

import json

import httpx
import pytest

from clarisearch.schema.corpus import CorpusDoc
from clarisearch.search.base import SearchError
from clarisearch.search.elastic import ElasticSearch, parse_target
from clarisearch.search.memory import MemorySearch


class FakeCluster:
    """Just enough of the REST API: index create/delete, _bulk, _refresh, _search, _doc."""

    def __init__(self) -> None:
        self.docs: dict[str, dict[str, str]] = {}
        self.requests: list[tuple[str, str, object]] = []

    def handle(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        body = request.content.decode() if request.content else ""
        self.requests.append((request.method, path, body))
        if path.endswith("/_bulk"):
            lines = body.strip().splitlines()
            for action, source in zip(lines[::2], lines[1::2], strict=True):
                self.docs[json.loads(action)["index"]["_id"]] = json.loads(source)
            return httpx.Response(200, json={"errors": False})
        if path.endswith("/_search"):
            query = json.loads(body)
            if "term" in query["query"]:
                hits = [d for d in self.docs.values() if d["url"] == query["query"]["term"]["url"]]
                return httpx.Response(200, json={"hits": {"hits": [{"_source": d} for d in hits[:1]]}})
            text = query["query"]["multi_match"]["query"]
            memory = MemorySearch([CorpusDoc(id=d["id"], title=d["title"], text=d["text"]) for d in self.docs.values()])
            hits = memory.search_one(text, query["size"])
            return httpx.Response(200, json={"hits": {"hits": [
                {"_id": h.doc_id, "_score": h.score, "_source": self.docs[h.doc_id]} for h in hits]}})
        if "/_doc/" in path:
            doc = self.docs.get(path.rsplit("/", 1)[1])
            return httpx.Response(200 if doc else 404, json={"found": bool(doc), "_source": doc})
        return httpx.Response(200, json={"acknowledged": True})


async def test_build_search_visit(small_docs: list[CorpusDoc]) -> None:
    cluster = FakeCluster()
    es = ElasticSearch("http://es.test:9200/demo", client=httpx.AsyncClient(transport=httpx.MockTransport(cluster.handle)))
    assert await es.build(small_docs, batch=2) == len(small_docs)
    created = next(json.loads(b) for m, p, b in cluster.requests if m == "PUT")  # type: ignore[arg-type]
    assert created["mappings"]["properties"]["id"] == {"type": "keyword"}
    hits = (await es.search(["where was basketball invented"], 3))[0]
    assert hits[0].doc_id == "en-2" and hits[0].rank == 1 and "Naismith" in hits[0].snippet
    sent = json.loads(next(b for m, p, b in reversed(cluster.requests) if p.endswith("/_search")))  # type: ignore[arg-type]
    assert sent["sort"] == [{"_score": "desc"}, {"id": "asc"}]
    assert (await es.visit("en-3")).title == "Marie Curie"  # type: ignore[union-attr]
    assert (await es.visit("https://w.test/beijing")).doc_id == "zh-1"  # type: ignore[union-attr]
    assert await es.visit("nope") is None


async def test_errors_are_typed() -> None:
    es = ElasticSearch("http://es.test:9200/x", client=httpx.AsyncClient(
        transport=httpx.MockTransport(lambda r: httpx.Response(503, text="unavailable"))))
    with pytest.raises(SearchError, match="HTTP 503"):
        await es.search(["q"])
    with pytest.raises(ValueError):
        parse_target("es.test/x")
