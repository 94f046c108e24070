"""`build-gold`: run the deep-search agent once on each fused query, archive the trace, and extract
static weighted nuggets with evidence ids (CTS paper section 4.2). Resumable: instances already in
the output file are skipped."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from clarisearch.agents.react import AgentLimits
from clarisearch.agents.tools import ToolLimits
from clarisearch.judges.extractor import (
    ExtractionInput,
    LLMNuggetExtractor,
    NuggetExtractor,
    RulesNuggetExtractor,
)
from clarisearch.llm.base import LLM
from clarisearch.protocols.common import build_roles, open_run_search
from clarisearch.runner.context import EpisodeContext, enter_episode, exit_episode
from clarisearch.runner.store import append_jsonl, read_jsonl
from clarisearch.schema.config import RunConfig
from clarisearch.schema.cts import CtsEvidence, CtsInstance
from clarisearch.schema.loader import load_records
from clarisearch.schema.results import AgentTrace


def evidence_of(trace: AgentTrace) -> tuple[list[CtsEvidence], dict[str, str]]:
    """Every search hit and visited page of a trace, keyed by document id."""
    evidence: dict[str, CtsEvidence] = {}
    pages: dict[str, str] = {}
    for step in trace.steps:
        for call in step.tool_calls:
            for hits in call.hits or []:
                for hit in hits:
                    evidence.setdefault(hit["doc_id"], CtsEvidence(id=hit["doc_id"], url=hit["url"], title=hit["title"],
                                                                   snippet=hit["snippet"]))
                    pages.setdefault(hit["doc_id"], hit["snippet"])
            for page in (call.page or {}).get("pages", []):
                evidence.setdefault(page["doc_id"], CtsEvidence(id=page["doc_id"], url=page["url"], title=page["title"],
                                                                snippet=page["content"][:400]))
                pages[page["doc_id"]] = page["content"]
    return list(evidence.values()), pages


async def build_gold(config: RunConfig, data: Path, out: Path, overrides: dict[str, LLM] | None = None,
                     concurrency: int = 4) -> dict[str, Any]:
    instances = load_records(data, CtsInstance, config.field_map)
    instances = instances[: config.limit] if config.limit else instances
    done = {r["id"] for r in read_jsonl(out)}
    traces = out.with_suffix(".traces.jsonl")
    search = open_run_search(config)
    roles = build_roles(config, overrides)
    new_agent = roles.search_agent_factory(search, AgentLimits(), ToolLimits())
    extractor: NuggetExtractor = RulesNuggetExtractor() if roles.rules("extractor") else LLMNuggetExtractor(roles.llm("extractor"))
    semaphore = asyncio.Semaphore(concurrency)
    failures: list[str] = []

    async def one(inst: CtsInstance) -> None:
        async with semaphore:
            token = enter_episode(EpisodeContext(episode_key=f"gold|{inst.id}"))
            try:
                trace = await new_agent().run(inst.fused_query)
                evidence, pages = evidence_of(trace)
                gold, raw = await extractor.extract(ExtractionInput(inst.fused_query, trace.answer, evidence, pages))
            finally:
                exit_episode(token)
            append_jsonl(traces, {"id": inst.id, "trace": trace.model_dump(mode="json"), "extractor_raw": raw})
            if gold is None:
                failures.append(inst.id)
                return
            append_jsonl(out, inst.model_copy(update={"gold": gold}).model_dump(mode="json"))

    await asyncio.gather(*(one(i) for i in instances if i.id not in done))
    return {"written": len(read_jsonl(out)), "skipped_existing": len(done), "extraction_failures": failures,
            "traces": str(traces)}
