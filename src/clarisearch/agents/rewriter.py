"""Rewriters: blurred query + Q&A pairs -> one query; nothing added that was not elicited."""

from __future__ import annotations

import re
from typing import Protocol

from clarisearch import prompts
from clarisearch.llm.base import LLM, DecodingParams
from clarisearch.schema.views import RewriterView
from clarisearch.search.text import has_cjk
from clarisearch.users.answerer import is_unknown


class Rewriter(Protocol):
    async def rewrite(self, view: RewriterView) -> tuple[str, str]:
        """(rewritten query, raw output)."""
        ...


def clean_rewrite(text: str, fallback: str) -> str:
    """First meaningful line of the output, without labels or quotes; the original query if empty."""
    for line in text.strip().splitlines():
        line = re.sub(r"^(rewritten query|query|改写后的查询|改写|查询)\s*[:：]\s*", "", line.strip(), flags=re.I)
        line = line.strip().strip('"“”\'`').strip()
        if line:
            return line
    return fallback


class LLMRewriter:
    def __init__(self, llm: LLM):
        self.llm = llm

    async def rewrite(self, view: RewriterView) -> tuple[str, str]:
        dialogue = "\n".join(f"Q: {q}\nA: {a}" for q, a in view.qa_pairs) or "(no clarification)"
        prompt = prompts.render("rewriter", query=view.blurred_query, dialogue=dialogue)
        completion = await self.llm.complete([{"role": "user", "content": prompt}], DecodingParams(temperature=0.0))
        return clean_rewrite(completion.text, view.blurred_query), completion.text


class RulesRewriter:
    """Rule-based baseline: appends the known answers to the query; unknown aspects stay open."""

    async def rewrite(self, view: RewriterView) -> tuple[str, str]:
        known = [a.strip() for _, a in view.qa_pairs if not is_unknown(a) and a.strip()]
        if not known:
            return view.blurred_query, "rules: no known answer, query unchanged"
        if has_cjk(view.blurred_query):
            query = f"{view.blurred_query.rstrip('？?。')}（{'，'.join(known)}）"
        else:
            end = "?" if view.blurred_query.rstrip().endswith("?") else ""
            query = f"{view.blurred_query.rstrip().rstrip('?.')} ({'; '.join(known)}){end}"
        return query, f"rules: appended {known}"
