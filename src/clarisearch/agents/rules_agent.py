"""Rule-based reference agents: search, read the top pages, answer with the best-supported sentences.

They need no model endpoint, so every protocol runs on a fresh machine; reports label them
`rules` (a retrieval baseline, not an LLM).
"""

from __future__ import annotations

import math
from collections import Counter

from clarisearch.agents.parsing import ToolCall
from clarisearch.agents.tools import ToolBox
from clarisearch.schema.results import AgentStep, AgentTrace
from clarisearch.search.text import has_cjk, split_sentences, tokenize


def rank_sentences(query: str, pages: list[tuple[int, str]], per_page: int = 2) -> list[tuple[float, int, int, str]]:
    """Sentences scored by IDF-weighted query-term overlap plus a small bonus for higher-ranked pages."""
    query_terms = set(tokenize(query))
    sentences = [(rank, i, s, set(tokenize(s))) for rank, text in pages for i, s in enumerate(split_sentences(text))]
    df: Counter[str] = Counter()
    for *_, terms in sentences:
        df.update(terms)
    n = max(1, len(sentences))
    scored = []
    for rank, i, sentence, terms in sentences:
        overlap = sum(math.log(1 + n / df[t]) for t in terms & query_terms)
        if overlap > 0:
            scored.append((overlap + 1.0 / (rank + 1), rank, i, sentence))
    scored.sort(key=lambda row: (-row[0], row[1], row[2]))
    kept: list[tuple[float, int, int, str]] = []
    per: Counter[int] = Counter()
    for row in scored:
        if per[row[1]] < per_page:
            kept.append(row)
            per[row[1]] += 1
    return kept


class RulesSearchAgent:
    """CTS deep-search baseline: one search, read the top `read_k` pages, answer with top sentences."""

    def __init__(self, tools: ToolBox, read_k: int = 3, answer_sentences: int = 4):
        self.tools = tools
        self.read_k = read_k
        self.answer_sentences = answer_sentences

    async def run(self, query: str) -> AgentTrace:
        steps = []
        _, search_record = await self.tools.execute(ToolCall("search", {"queries": [query]}))
        steps.append(AgentStep(output="<think>rules: search the query</think>", tool_calls=[search_record]))
        hits = (search_record.hits or [[]])[0][: self.read_k]
        pages: list[tuple[int, str]] = []
        if hits:
            _, visit_record = await self.tools.execute(
                ToolCall("visit", {"urls": [h["url"] for h in hits], "goal": query}))
            steps.append(AgentStep(output="<think>rules: read the top pages</think>", tool_calls=[visit_record]))
            pages = [(rank, p["content"]) for rank, p in enumerate((visit_record.page or {}).get("pages", []))]
        best = sorted(rank_sentences(query, pages)[: self.answer_sentences], key=lambda r: (r[1], r[2]))
        sep = "" if has_cjk(query) else " "
        answer = sep.join(row[3] for row in best)
        steps.append(AgentStep(output=f"<answer>{answer}</answer>"))
        return AgentTrace(query=query, steps=steps, answer=answer, termination="answered" if answer else "no_evidence",
                          llm_calls=0, searches=self.tools.searches, visits=self.tools.visits)
