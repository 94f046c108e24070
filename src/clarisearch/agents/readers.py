"""What `visit` returns to the agent: raw page text, extractive evidence, or an LLM summary."""

from __future__ import annotations

from clarisearch import prompts
from clarisearch.llm.base import LLM
from clarisearch.search.base import Page
from clarisearch.search.text import split_sentences, tokenize


class RawReader:
    async def read(self, page: Page, goal: str) -> str:
        return page.text


class ExtractiveReader:
    """Rule-based summarizer: the sentences sharing most terms with the goal, in page order."""

    def __init__(self, max_sentences: int = 6):
        self.max_sentences = max_sentences

    async def read(self, page: Page, goal: str) -> str:
        sentences = split_sentences(page.text)
        goal_terms = set(tokenize(goal))
        if not goal_terms or len(sentences) <= self.max_sentences:
            return page.text
        scored = sorted(range(len(sentences)), key=lambda i: (-len(goal_terms & set(tokenize(sentences[i]))), i))
        keep = sorted(scored[: self.max_sentences])
        return " ".join(sentences[i] for i in keep)


class SummaryReader:
    """The `summarizer` role: a goal-directed evidence summary of the page (WebDancer's visit)."""

    def __init__(self, llm: LLM, max_page_chars: int = 20000):
        self.llm = llm
        self.max_page_chars = max_page_chars

    async def read(self, page: Page, goal: str) -> str:
        prompt = prompts.render("summarizer", goal=goal or "(none given)", title=page.title,
                                page=page.text[: self.max_page_chars])
        completion = await self.llm.complete([{"role": "user", "content": prompt}])
        return completion.text.strip()
