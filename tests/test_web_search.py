from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from clarisearch.search.base import SearchError
from clarisearch.search.snapshot import SnapshotSearch
from clarisearch.search.web import WebSearch, html_to_text


def transport(log: list[httpx.Request]) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        log.append(request)
        if request.url.path == "/search" and request.url.host == "tavily.test":
            query = json.loads(request.content)["query"]
            return httpx.Response(200, json={"results": [{"title": f"T {query}", "url": "https://a.test/1",
                                                          "content": "snippet one"}]})
        if request.url.path == "/search":
            return httpx.Response(200, json={"organic": [{"title": "S", "link": "https://b.test/x", "snippet": "s"}]})
        if request.url.path == "/extract":
            return httpx.Response(200, json={"results": [{"url": "https://a.test/1", "raw_content": "full page"}]})
        return httpx.Response(500)

    return httpx.MockTransport(handle)


async def test_tavily_and_serper_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tv-key")
    monkeypatch.setenv("SERPER_API_KEY", "sp-key")
    log: list[httpx.Request] = []
    client = httpx.AsyncClient(transport=transport(log))
    tavily = WebSearch("tavily", client=client, base_url="https://tavily.test")
    hits = (await tavily.search(["nobel 1921"], k=5))[0]
    assert hits[0].title == "T nobel 1921" and hits[0].rank == 1 and hits[0].url == "https://a.test/1"
    assert log[-1].headers["authorization"] == "Bearer tv-key"
    page = await tavily.visit("https://a.test/1")
    assert page is not None and page.text == "full page"
    serper = WebSearch("serper", client=client, base_url="https://serper.test")
    assert (await serper.search(["x"]))[0][0].url == "https://b.test/x"
    assert log[-1].headers["x-api-key"] == "sp-key"


def test_missing_key_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    with pytest.raises(SearchError, match="TAVILY_API_KEY"):
        WebSearch("tavily")


def test_html_to_text_drops_scripts() -> None:
    title, text = html_to_text("<html><head><title>T</title><script>alert(1)</script></head>"
                               "<body><p>Hello</p><script>evil()</script><p>World</p></body></html>")
    assert title == "T" and "Hello" in text and "World" in text and "evil" not in text and "alert" not in text


async def test_snapshot_records_then_replays_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "k")
    log: list[httpx.Request] = []
    live = WebSearch("tavily", client=httpx.AsyncClient(transport=transport(log)), base_url="https://tavily.test")
    snap = tmp_path / "snap.jsonl"
    recorder = SnapshotSearch(snap, "record", live)
    recorded = await recorder.search(["q1", "q2"], 5)
    page = await recorder.visit("https://a.test/1")
    await recorder.search(["q1"], 5)  # served from the snapshot, no new request
    assert len(log) == 3
    replay = SnapshotSearch(snap, "replay")
    assert await replay.search(["q1", "q2"], 5) == recorded
    assert await replay.visit("https://a.test/1") == page
    with pytest.raises(SearchError, match="no results"):
        await replay.search(["unseen"], 5)
    assert replay.fingerprint.startswith("snapshot:")
