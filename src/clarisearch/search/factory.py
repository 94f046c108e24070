"""Turn a `--search` spec into a backend: demo | local:INDEX | corpus:FILE | elastic:URL/INDEX | tavily | serper."""

from __future__ import annotations

import hashlib
import json
import os
from importlib import resources
from pathlib import Path

from clarisearch.schema.loader import FieldMap
from clarisearch.search.base import SearchBackend
from clarisearch.search.corpus import corpus_sha256
from clarisearch.search.local import META_FILE, LocalIndex, build_index


def home_dir() -> Path:
    return Path(os.environ.get("CLARISEARCH_HOME", Path.home() / ".cache" / "clarisearch"))


def demo_path(name: str) -> Path:
    """A bundled demo file: `cts.jsonl`, `disco.jsonl` or the `corpus` folder."""
    return Path(str(resources.files("clarisearch").joinpath("data", "demo", name)))


def index_for_corpus(corpus: str | Path, field_map: FieldMap | None = None) -> Path:
    """The cached index of a corpus (built on first use, keyed by the corpus content hash)."""
    digest = corpus_sha256(corpus)[:16]
    if field_map:
        digest += "-" + hashlib.sha256(json.dumps(dict(field_map), sort_keys=True).encode()).hexdigest()[:8]
    out = home_dir() / "indexes" / digest
    if not (out / META_FILE).exists():
        build_index(corpus, out, field_map)
    return out


def open_search(spec: str, corpus_field_map: FieldMap | None = None) -> SearchBackend:
    kind, _, arg = spec.partition(":")
    if kind == "demo":
        return LocalIndex(index_for_corpus(demo_path("corpus")))
    if kind == "local":
        return LocalIndex(arg)
    if kind == "corpus":
        return LocalIndex(index_for_corpus(arg, corpus_field_map))
    if kind == "elastic":
        from clarisearch.search.elastic import ElasticSearch

        return ElasticSearch(arg)
    if kind in ("tavily", "serper"):
        from clarisearch.search.web import open_web_search

        return open_web_search(kind, arg or None)
    raise ValueError(f"unknown search spec {spec!r}: use demo, local:INDEX_DIR, corpus:CORPUS.jsonl, elastic:URL/INDEX, tavily or serper")
