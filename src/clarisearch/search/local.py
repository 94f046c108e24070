"""The embedded default: a tantivy BM25 index over a corpus, deterministic across builds.

Determinism: text is tokenized by our own tokenizer (jieba for CJK) and indexed with tantivy's
whitespace tokenizer; the index is written by ONE writer thread in corpus order; ranking ties are
broken by doc id.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from pathlib import Path

import tantivy

from clarisearch.schema.loader import FieldMap
from clarisearch.search.base import Page, SearchHit
from clarisearch.search.corpus import corpus_sha256, iter_corpus
from clarisearch.search.snippets import best_passage
from clarisearch.search.text import TOKENIZER_VERSION, tokenize

META_FILE = "clarisearch_index.json"
TITLE_BOOST = 2.0


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    builder.add_text_field("url", stored=True, tokenizer_name="raw")
    builder.add_text_field("title", stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field("text", stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field("lang", stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field("title_tok", tokenizer_name="whitespace")
    builder.add_text_field("body_tok", tokenizer_name="whitespace")
    return builder.build()


def build_index(corpus: str | Path, out_dir: str | Path, field_map: FieldMap | None = None,
                heap_bytes: int = 256_000_000) -> dict[str, object]:
    """Build an index into `out_dir` (replacing it); returns the metadata written beside it."""
    out = Path(out_dir)
    tmp = out.with_name(out.name + ".building")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    started = time.perf_counter()
    index = tantivy.Index(_schema(), path=str(tmp))
    writer = index.writer(heap_size=heap_bytes, num_threads=1)
    count = 0
    for doc in iter_corpus(corpus, field_map):
        writer.add_document(tantivy.Document(
            id=doc.id, url=doc.effective_url(), title=doc.title, text=doc.text, lang=doc.lang or "",
            title_tok=" ".join(tokenize(doc.title)), body_tok=" ".join(tokenize(doc.text)),
        ))
        count += 1
    writer.commit()
    writer.wait_merging_threads()
    meta: dict[str, object] = {
        "schema_version": 1,
        "corpus": str(Path(corpus).resolve()),
        "corpus_sha256": corpus_sha256(corpus),
        "n_docs": count,
        "tokenizer_version": TOKENIZER_VERSION,
        "build_seconds": round(time.perf_counter() - started, 3),
    }
    (tmp / META_FILE).write_text(json.dumps(meta, indent=2))
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return meta


class LocalIndex:
    """SearchBackend over a built index folder."""

    name = "local"

    def __init__(self, index_dir: str | Path, snippet_chars: int = 320):
        self.index_dir = Path(index_dir)
        meta_path = self.index_dir / META_FILE
        if not meta_path.exists():
            raise FileNotFoundError(f"{self.index_dir} is not a clarisearch index (no {META_FILE}); "
                                    "build one with `clarisearch index build CORPUS --out DIR`")
        self.meta = json.loads(meta_path.read_text())
        self.fingerprint = f"local:{self.meta['corpus_sha256'][:16]}:tok{self.meta['tokenizer_version']}"
        self._index = tantivy.Index.open(str(self.index_dir))
        self._searcher = self._index.searcher()
        self.snippet_chars = snippet_chars

    @property
    def num_docs(self) -> int:
        return int(self._searcher.num_docs)

    def search_one(self, query: str, k: int = 10) -> list[SearchHit]:
        terms = tokenize(query)
        if not terms:
            return []
        parsed = self._index.parse_query(" ".join(terms), ["title_tok", "body_tok"], field_boosts={"title_tok": TITLE_BOOST})
        raw = self._searcher.search(parsed, limit=k + 25).hits
        rows = []
        for score, address in raw:
            doc = self._searcher.doc(address)
            rows.append((round(float(score), 5), doc.get_first("id"), doc))
        rows.sort(key=lambda row: (-row[0], row[1]))
        return [
            SearchHit(doc_id=str(doc_id), title=doc.get_first("title") or "", url=doc.get_first("url") or "",
                      snippet=best_passage(doc.get_first("text") or "", query, self.snippet_chars,
                                           title=doc.get_first("title") or ""),
                      score=score, rank=rank)
            for rank, (score, doc_id, doc) in enumerate(rows[:k], start=1)
        ]

    def get(self, url_or_id: str) -> Page | None:
        for field in ("id", "url"):
            query = tantivy.Query.term_query(self._index.schema, field, url_or_id)
            hits = self._searcher.search(query, limit=1).hits
            if hits:
                doc = self._searcher.doc(hits[0][1])
                return Page(doc_id=str(doc.get_first("id")), url=str(doc.get_first("url") or ""),
                            title=str(doc.get_first("title") or ""), text=str(doc.get_first("text") or ""))
        return None

    async def search(self, queries: list[str], k: int = 10) -> list[list[SearchHit]]:
        return await asyncio.to_thread(lambda: [self.search_one(q, k) for q in queries])

    async def visit(self, url_or_id: str) -> Page | None:
        return await asyncio.to_thread(self.get, url_or_id)
