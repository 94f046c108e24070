"""Plan a CTS run from its config: load instances, open search, bind roles, list episodes."""

from __future__ import annotations

from typing import Any

from clarisearch.agents.react import AgentLimits
from clarisearch.agents.tools import ToolLimits
from clarisearch.llm.base import LLM
from clarisearch.metrics.cts import summarize_cts
from clarisearch.protocols.common import build_roles, data_path, file_sha256, open_run_search
from clarisearch.protocols.cts import CtsPipeline, CtsTask, build_specs, error_episode, run_cts_episode
from clarisearch.runner.batch import EpisodeSpec
from clarisearch.runner.execute import ProtocolPlan
from clarisearch.schema.config import RunConfig
from clarisearch.schema.cts import CtsInstance
from clarisearch.schema.loader import DataError, DataProblem, load_records

DEFAULT_BUDGETS: dict[str, Any] = {"max_llm_calls": 40, "max_context_chars": 160_000, "search_k": 10,
                                   "max_searches": None}


def load_cts(config: RunConfig) -> list[CtsInstance]:
    path = data_path(config, "cts.jsonl")
    instances = load_records(path, CtsInstance, config.field_map)
    missing = [DataProblem(str(path), 0, "gold", f"instance {i.id!r} has no gold nuggets") for i in instances if i.gold is None]
    if missing:
        raise DataError(missing)
    config.data_sha256 = file_sha256(path)
    return instances[: config.limit] if config.limit else instances


async def plan_cts(config: RunConfig, overrides: dict[str, LLM] | None = None) -> ProtocolPlan:
    instances = load_cts(config)
    budgets = {**DEFAULT_BUDGETS, **config.budgets}
    config.budgets = budgets
    search = open_run_search(config)
    roles = build_roles(config, overrides)
    agent_limits = AgentLimits(max_llm_calls=budgets["max_llm_calls"], max_context_chars=budgets["max_context_chars"])
    tool_limits = ToolLimits(search_k=budgets["search_k"], max_searches=budgets["max_searches"])
    pipeline = CtsPipeline(roles.clarifier(config.clarifier_prompt), roles.answerer(), roles.rewriter(),
                           roles.coverage_judge(),
                           roles.search_agent_factory(search, agent_limits, tool_limits, config.tool_format == "native"),
                           roles.label("clarifier"), roles.ask_gate() if config.ask_gate else None)
    specs = build_specs(instances, config.ks or [1], config.modes or ["batch"], config.include_gold)

    async def episode(spec: EpisodeSpec) -> Any:
        task: CtsTask = spec.payload
        return await run_cts_episode(pipeline, task, spec.key)

    return ProtocolPlan(specs, episode, error_episode, lambda rs: summarize_cts(rs, seed=config.seed),
                        lambda r: r.get("restore_score_100"), "restore")
