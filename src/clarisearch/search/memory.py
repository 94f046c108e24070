"""In-process search backend over a list of documents (pure-Python BM25): the test fake."""

from __future__ import annotations

import hashlib
import math
from collections import Counter

from clarisearch.schema.corpus import CorpusDoc
from clarisearch.search.base import Page, SearchHit
from clarisearch.search.snippets import best_passage
from clarisearch.search.text import tokenize


class MemorySearch:
    """Deterministic BM25 over documents held in memory; records every query it receives."""

    name = "memory"

    def __init__(self, docs: list[CorpusDoc], k1: float = 1.2, b: float = 0.75):
        self.docs = {d.id: d for d in docs}
        self.by_url = {d.effective_url(): d for d in docs}
        self.fingerprint = "memory:" + hashlib.sha256("".join(sorted(self.docs)).encode()).hexdigest()[:16]
        self.k1, self.b = k1, b
        self._tf = {d.id: Counter(tokenize(d.title) * 2 + tokenize(d.text)) for d in docs}
        self._len = {doc_id: sum(tf.values()) for doc_id, tf in self._tf.items()}
        self._avg = (sum(self._len.values()) / len(self._len)) if self._len else 1.0
        df: Counter[str] = Counter()
        for tf in self._tf.values():
            df.update(tf.keys())
        n = max(1, len(docs))
        self._idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        self.queries: list[str] = []
        self.visits: list[str] = []

    def search_one(self, query: str, k: int = 10) -> list[SearchHit]:
        terms = tokenize(query)
        scored = []
        for doc_id, tf in self._tf.items():
            score = 0.0
            for term in terms:
                f = tf.get(term, 0)
                if f:
                    norm = f + self.k1 * (1 - self.b + self.b * self._len[doc_id] / self._avg)
                    score += self._idf[term] * f * (self.k1 + 1) / norm
            if score > 0:
                scored.append((round(score, 5), doc_id))
        scored.sort(key=lambda row: (-row[0], row[1]))
        hits = []
        for rank, (score, doc_id) in enumerate(scored[:k], start=1):
            doc = self.docs[doc_id]
            hits.append(SearchHit(doc_id, doc.title, doc.effective_url(), best_passage(doc.text, query, title=doc.title), score, rank))
        return hits

    async def search(self, queries: list[str], k: int = 10) -> list[list[SearchHit]]:
        self.queries.extend(queries)
        return [self.search_one(q, k) for q in queries]

    async def visit(self, url_or_id: str) -> Page | None:
        self.visits.append(url_or_id)
        doc = self.docs.get(url_or_id) or self.by_url.get(url_or_id)
        return Page(doc.id, doc.effective_url(), doc.title, doc.text) if doc else None
