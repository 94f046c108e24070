"""Web search APIs (Tavily, Serper) over httpx; keys come from the environment only."""

from __future__ import annotations

import hashlib
import os
from html.parser import HTMLParser
from typing import Any

import httpx

from clarisearch.search.base import Page, SearchError, SearchHit

_KEY_ENV = {"tavily": "TAVILY_API_KEY", "serper": "SERPER_API_KEY"}


class _TextExtractor(HTMLParser):
    _SKIP = {"script", "style", "noscript", "template", "svg", "head"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip_depth = 0
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self._skip_depth += 1
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self._skip_depth:
            self._skip_depth -= 1
        if tag in {"p", "div", "br", "li", "h1", "h2", "h3", "tr"}:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title and not self.title:
            self.title = data.strip()
        if not self._skip_depth:
            self.parts.append(data)


def html_to_text(html: str) -> tuple[str, str]:
    """(title, visible text) of an HTML page; scripts and styles are dropped, never run."""
    parser = _TextExtractor()
    parser.feed(html)
    lines = [" ".join(line.split()) for line in "".join(parser.parts).splitlines()]
    return parser.title, "\n".join(line for line in lines if line)


class WebSearch:
    """Tavily or Serper search; `visit` fetches the page (Tavily: its extract API)."""

    def __init__(self, provider: str, api_key_env: str | None = None, client: httpx.AsyncClient | None = None,
                 base_url: str | None = None):
        if provider not in _KEY_ENV:
            raise ValueError(f"unknown web search provider {provider!r}")
        self.name = provider
        self.fingerprint = f"web:{provider}"
        env = api_key_env or _KEY_ENV[provider]
        key = os.environ.get(env)
        if not key:
            raise SearchError(f"{provider} search needs an API key in the environment variable {env}")
        self._key = key
        self._client = client or httpx.AsyncClient(timeout=60)
        self._base = base_url or {"tavily": "https://api.tavily.com", "serper": "https://google.serper.dev"}[provider]

    async def _post(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self._key}"} if self.name == "tavily" else {"X-API-KEY": self._key}
        try:
            response = await self._client.post(f"{self._base}{path}", json=payload, headers=headers)
            response.raise_for_status()
            data: dict[str, Any] = response.json()
            return data
        except (httpx.HTTPError, ValueError) as exc:
            raise SearchError(f"{self.name} request failed: {type(exc).__name__}: {str(exc)[:300]}") from exc

    async def search(self, queries: list[str], k: int = 10) -> list[list[SearchHit]]:
        results = []
        for query in queries:
            if self.name == "tavily":
                data = await self._post("/search", {"query": query, "max_results": k})
                rows = [(r.get("title", ""), r.get("url", ""), r.get("content", "")) for r in data.get("results", [])]
            else:
                data = await self._post("/search", {"q": query, "num": k})
                rows = [(r.get("title", ""), r.get("link", ""), r.get("snippet", "")) for r in data.get("organic", [])]
            results.append([SearchHit(hashlib.sha1(url.encode()).hexdigest()[:12], title, url, snippet, 0.0, rank)
                            for rank, (title, url, snippet) in enumerate(rows[:k], start=1)])
        return results

    async def visit(self, url_or_id: str) -> Page | None:
        if self.name == "tavily":
            data = await self._post("/extract", {"urls": [url_or_id]})
            for row in data.get("results", []):
                return Page(hashlib.sha1(url_or_id.encode()).hexdigest()[:12], url_or_id, "", row.get("raw_content", ""))
            return None
        try:
            response = await self._client.get(url_or_id, follow_redirects=True)
        except httpx.HTTPError:
            return None
        if response.status_code >= 400:
            return None
        title, text = html_to_text(response.text)
        return Page(hashlib.sha1(url_or_id.encode()).hexdigest()[:12], url_or_id, title, text)


def open_web_search(provider: str, api_key_env: str | None) -> WebSearch:
    return WebSearch(provider, api_key_env)
