"""Search speed and determinism, measured side by side in one run (machines here are noisy).

    python benchmarks/bench_search.py [--docs 100000] [--queries 300]

Prints: local tantivy index build time, query latency p50/p95 (ms), the same for the pure-Python
in-memory BM25 backend on the same corpus (the test fake; a baseline), their ratio, and the share
of queries whose top-10 order is identical across two independent index builds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from clarisearch.schema.corpus import CorpusDoc
from clarisearch.search.local import LocalIndex, build_index
from clarisearch.search.memory import MemorySearch


def synthetic_corpus(n: int, seed: int = 0) -> list[CorpusDoc]:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(20000)]
    weights = [1 / (i + 1) for i in range(len(vocab))]  # Zipf-like
    docs = []
    for i in range(n):
        words = rng.choices(vocab, weights, k=rng.randint(30, 80))
        docs.append(CorpusDoc(id=f"d{i:07d}", title=" ".join(words[:4]), text=" ".join(words) + "."))
    return docs


def latencies(fn, queries: list[str]) -> list[float]:  # noqa: ANN001
    out = []
    for query in queries:
        start = time.perf_counter()
        fn(query, 10)
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--memory-docs", type=int, default=20_000, help="corpus size for the side-by-side comparison")
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(1)
    docs = synthetic_corpus(args.docs)
    queries = [" ".join(rng.choice(docs).text.split()[:rng.randint(2, 5)]) for _ in range(args.queries)]
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.jsonl"
        corpus.write_text("\n".join(d.model_dump_json() for d in docs))
        start = time.perf_counter()
        build_index(corpus, Path(tmp) / "a")
        build_s = time.perf_counter() - start
        build_index(corpus, Path(tmp) / "b")
        a, b = LocalIndex(Path(tmp) / "a"), LocalIndex(Path(tmp) / "b")
        same = sum([h.doc_id for h in a.search_one(q, 10)] == [h.doc_id for h in b.search_one(q, 10)] for q in queries)
        big = latencies(a.search_one, queries)

        small_docs = docs[: args.memory_docs]
        small_corpus = Path(tmp) / "small.jsonl"
        small_corpus.write_text("\n".join(d.model_dump_json() for d in small_docs))
        build_index(small_corpus, Path(tmp) / "small")
        small_index, memory = LocalIndex(Path(tmp) / "small"), MemorySearch(small_docs)
        few = queries[: max(20, args.queries // 10)]
        tantivy_small, memory_small = latencies(small_index.search_one, few), latencies(memory.search_one, few)

    def p(values: list[float], q: float) -> float:
        return statistics.quantiles(values, n=100)[int(q) - 1]

    print(f"local index, {args.docs:,} docs: build {build_s:.1f} s (1 writer thread), "
          f"{args.docs / build_s:,.0f} docs/s")
    print(f"  query latency p50 {p(big, 50):.2f} ms, p95 {p(big, 95):.2f} ms over {len(big)} queries")
    print(f"  determinism: identical top-10 order across two builds for {same}/{len(queries)} queries "
          f"({100 * same / len(queries):.1f}%)")
    print(f"side by side on {args.memory_docs:,} docs, {len(few)} queries:")
    print(f"  tantivy p50 {p(tantivy_small, 50):.2f} ms | in-memory Python BM25 p50 {p(memory_small, 50):.2f} ms | "
          f"ratio {p(memory_small, 50) / p(tantivy_small, 50):.0f}x")


if __name__ == "__main__":
    main()
