"""End-to-end episode throughput, side by side in one run.

    python benchmarks/bench_runner.py [--latency-ms 50] [--limit 12]

1. CTS demo with the rule-based roles (search + judging cost only), concurrency 1 vs 4.
2. CTS demo with every LLM role on a local OpenAI-compatible mock endpoint that answers after a fixed
   latency (the real SDK/HTTP path), concurrency 1 vs 8: shows what bounded concurrency buys.
Peak RSS of the process is printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clarisearch.runner.execute import execute  # noqa: E402
from clarisearch.schema.config import RunConfig  # noqa: E402
from tests.mock_openai import MockOpenAI  # noqa: E402

ROLES = ("agent", "clarifier", "user", "rewriter", "judge", "summarizer", "extractor")


def mock_reply(latency_s: float):  # noqa: ANN201
    def reply(body: dict) -> str:
        time.sleep(latency_s)
        prompt = body["messages"][-1]["content"]
        if "JSON array" in prompt:
            return json.dumps(["Which year do you mean?"] * 3)
        if "CLARIFICATION QUESTION" in prompt:
            return "unknown"
        if "Rewrite the user's search query" in prompt:
            return "rewritten query"
        if "NUGGETS:" in prompt:
            ids = re.findall(r"- id=(\S+) \(weight", prompt)
            return json.dumps({"labels": [{"id": i, "label": "partial"} for i in ids]})
        return "<answer>An answer.</answer>"

    return reply


def timed(config: RunConfig, folder: Path) -> tuple[float, int]:
    start = time.perf_counter()
    execute(config, folder, progress=False)
    elapsed = time.perf_counter() - start
    return elapsed, len((folder / "results.jsonl").read_text().splitlines())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--latency-ms", type=float, default=50)
    parser.add_argument("--limit", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["CLARISEARCH_HOME"] = str(Path(tmp) / "home")
        rules = dict.fromkeys(ROLES, "rules")
        for concurrency in (1, 4):
            config = RunConfig(protocol="cts", data="demo", search="demo", roles=rules, ks=[1, 2, 3],
                               modes=["batch"], include_gold=True, concurrency=concurrency, cache_mode="off")
            elapsed, n = timed(config, Path(tmp) / f"rules-{concurrency}")
            print(f"rules roles, concurrency {concurrency}: {n} episodes in {elapsed:.2f} s ({n / elapsed:.1f} episodes/s)")
        with MockOpenAI(default=mock_reply(args.latency_ms / 1000)) as mock:
            spec = f"local/mock?base_url={mock.base_url}&max_concurrency=16"
            llm_roles = dict.fromkeys(ROLES, spec)
            rates = {}
            for concurrency in (1, 8):
                config = RunConfig(protocol="cts", data="demo", search="demo", roles=llm_roles, ks=[1], modes=["batch"],
                                   limit=args.limit, concurrency=concurrency, cache_mode="off")
                elapsed, n = timed(config, Path(tmp) / f"llm-{concurrency}")
                rates[concurrency] = n / elapsed
                print(f"LLM roles on a {args.latency_ms:.0f} ms mock endpoint, concurrency {concurrency}: {n} episodes "
                      f"in {elapsed:.2f} s ({rates[concurrency]:.1f} episodes/s, {len(mock.requests)} requests so far)")
            print(f"speed-up from concurrency 8 vs 1: {rates[8] / rates[1]:.1f}x")
    print(f"peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
