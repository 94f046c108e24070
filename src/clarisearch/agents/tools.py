"""The agent's tools, `search` and `visit`, over any SearchBackend, with a search budget.

A tool error (bad arguments, budget spent, page not found) goes back to the model as an
observation; only backend infrastructure errors propagate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from clarisearch.agents.parsing import ToolCall
from clarisearch.runner.context import current_episode
from clarisearch.schema.results import ToolCallRecord
from clarisearch.search.base import Page, SearchBackend

TOOL_SCHEMAS: list[dict[str, Any]] = [
    {"type": "function", "function": {
        "name": "search", "description": "Web search. Returns the top results (title, url, snippet) for each query.",
        "parameters": {"type": "object", "required": ["queries"], "properties": {
            "queries": {"type": "array", "items": {"type": "string"}, "description": "1-3 search queries"}}}}},
    {"type": "function", "function": {
        "name": "visit", "description": "Read pages. Returns the content of each page relevant to the goal.",
        "parameters": {"type": "object", "required": ["urls", "goal"], "properties": {
            "urls": {"type": "array", "items": {"type": "string"}, "description": "urls or result ids"},
            "goal": {"type": "string", "description": "what to find on the pages"}}}}},
]


class PageReader(Protocol):
    """Turns a visited page into what the agent reads (raw text, or a goal-directed summary)."""

    async def read(self, page: Page, goal: str) -> str: ...


@dataclass
class ToolLimits:
    search_k: int = 10
    max_searches: int | None = None
    max_queries_per_call: int = 5
    max_page_chars: int = 6000


class ToolBox:
    """Executes tool calls for one agent episode and counts searches and visits."""

    def __init__(self, backend: SearchBackend, reader: PageReader, limits: ToolLimits | None = None):
        self.backend = backend
        self.reader = reader
        self.limits = limits or ToolLimits()
        self.searches = 0
        self.visits = 0
        self._urls_by_id: dict[str, str] = {}

    @property
    def searches_left(self) -> int | None:
        if self.limits.max_searches is None:
            return None
        return max(0, self.limits.max_searches - self.searches)

    async def execute(self, call: ToolCall) -> tuple[str, ToolCallRecord]:
        record = ToolCallRecord(name=call.name or "?", arguments=call.arguments)
        if call.error:
            record.error = call.error
        elif call.name == "search":
            return await self._search(call, record)
        elif call.name == "visit":
            return await self._visit(call, record)
        else:
            record.error = f"unknown tool {call.name!r}; available tools: search, visit"
        current_episode().emit("tool_call", role="agent", name=record.name, arguments=record.arguments, error=record.error)
        return f"Error: {record.error}", record

    async def _search(self, call: ToolCall, record: ToolCallRecord) -> tuple[str, ToolCallRecord]:
        queries = call.arguments.get("queries", call.arguments.get("query"))
        if isinstance(queries, str):
            queries = [queries]
        if not isinstance(queries, list) or not all(isinstance(q, str) and q.strip() for q in queries) or not queries:
            record.error = 'search needs {"queries": ["non-empty query", ...]}'
            return f"Error: {record.error}", record
        queries = queries[: self.limits.max_queries_per_call]
        left = self.searches_left
        if left is not None and left < len(queries):
            if left == 0:
                record.error = "search budget exhausted: no searches left; answer with what you have"
                current_episode().emit("tool_call", role="agent", name="search", arguments=call.arguments, error=record.error)
                return f"Error: {record.error}", record
            queries = queries[:left]
        results = await self.backend.search(queries, self.limits.search_k)
        self.searches += len(queries)
        record.arguments = {"queries": queries}
        record.hits = [[hit.to_dict() for hit in hits] for hits in results]
        blocks = []
        for query, hits in zip(queries, results, strict=True):
            lines = [f"## Results for: {query}"]
            if not hits:
                lines.append("(no results)")
            for hit in hits:
                self._urls_by_id[hit.doc_id] = hit.url
                lines.append(f"{hit.rank}. [{hit.title}]({hit.url}) id={hit.doc_id}\n   {hit.snippet}")
            blocks.append("\n".join(lines))
        current_episode().emit("tool_call", role="agent", name="search", arguments=record.arguments,
                               n_hits=[len(h) for h in results])
        return "\n\n".join(blocks), record

    async def _visit(self, call: ToolCall, record: ToolCallRecord) -> tuple[str, ToolCallRecord]:
        urls = call.arguments.get("urls", call.arguments.get("url"))
        goal = str(call.arguments.get("goal", ""))
        if isinstance(urls, str):
            urls = [urls]
        if not isinstance(urls, list) or not urls or not all(isinstance(u, str) for u in urls):
            record.error = 'visit needs {"urls": ["url or result id", ...], "goal": "..."}'
            return f"Error: {record.error}", record
        blocks, pages = [], []
        for url in urls[:3]:
            page = await self.backend.visit(url) or (
                await self.backend.visit(self._urls_by_id[url]) if url in self._urls_by_id else None)
            self.visits += 1
            if page is None:
                blocks.append(f"## {url}\nError: page not found")
                continue
            content = await self.reader.read(page, goal)
            pages.append({"doc_id": page.doc_id, "url": page.url, "title": page.title,
                          "content": content[: self.limits.max_page_chars]})
            blocks.append(f"## {page.title} ({page.url})\n{content[: self.limits.max_page_chars]}")
        record.page = {"goal": goal, "pages": pages}
        current_episode().emit("tool_call", role="agent", name="visit", arguments=call.arguments,
                               found=[p["doc_id"] for p in pages])
        return "\n\n".join(blocks), record
