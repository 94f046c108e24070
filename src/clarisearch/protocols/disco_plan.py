"""Plan a Disco (or QC) run from its config: load samples, open search, bind roles, list episodes."""

from __future__ import annotations

from typing import Any

from clarisearch.agents.disco_agent import DiscoAgent, ReactDiscoAgent, RulesDiscoAgent
from clarisearch.agents.react import AgentLimits
from clarisearch.agents.tools import ToolBox, ToolLimits
from clarisearch.llm.base import LLM
from clarisearch.metrics.disco import summarize_disco
from clarisearch.protocols.common import build_roles, data_path, file_sha256, open_run_search
from clarisearch.protocols.disco import (
    DiscoLimits,
    DiscoParticipants,
    episode_key,
    error_episode,
    run_disco_episode,
)
from clarisearch.protocols.qc import OPEN_BOOK_NOTE, run_qc_episode
from clarisearch.runner.batch import EpisodeSpec
from clarisearch.runner.execute import ProtocolPlan
from clarisearch.schema.config import RunConfig
from clarisearch.schema.disco import DiscoSample
from clarisearch.schema.loader import load_records
from clarisearch.users.disco_simulator import LLMUserSimulator, RulesUserSimulator

DEFAULT_BUDGETS: dict[str, Any] = {"max_turns": 12, "max_searches": 25, "max_tokens": None, "max_llm_calls": 60,
                                   "search_k": 10}


def load_disco(config: RunConfig) -> list[DiscoSample]:
    path = data_path(config, "disco.jsonl")
    samples = load_records(path, DiscoSample, config.field_map)
    config.data_sha256 = file_sha256(path)
    samples = samples[: config.limit] if config.limit else samples
    if config.ablation == "unambiguous":
        samples = [s.unambiguous_variant() for s in samples]
    return samples


def _score(record: dict[str, Any]) -> float | None:
    value = record.get("e2e_correct")
    return None if value is None else float(value)


async def plan_disco(config: RunConfig, overrides: dict[str, LLM] | None = None) -> ProtocolPlan:
    samples = load_disco(config)
    budgets = {**DEFAULT_BUDGETS, **{k: v for k, v in config.budgets.items() if v is not None}}
    config.budgets = budgets
    search = open_run_search(config)
    roles = build_roles(config, overrides)
    judge = roles.equivalence_judge()
    tool_limits = ToolLimits(search_k=budgets["search_k"], max_searches=budgets["max_searches"])
    agent_limits = AgentLimits(max_llm_calls=budgets["max_llm_calls"])
    native = config.tool_format == "native"

    if config.protocol == "qc":
        mode = config.qc_mode or "closed-book"
        closed_llm = None if mode != "closed-book" or roles.rules("agent") else roles.llm("agent")
        open_agent = (roles.search_agent_factory(search, agent_limits, tool_limits, native, OPEN_BOOK_NOTE)
                      if mode == "open-book" else None)

        async def qc_episode(spec: EpisodeSpec) -> Any:
            sample = spec.payload[0]
            return await run_qc_episode(sample, mode, spec.key, judge, closed_llm, open_agent() if open_agent else None)

        specs = [EpisodeSpec(f"qc|{s.id}|{mode}", s.id, (s, "qc", "none")) for s in samples]
        return ProtocolPlan(specs, qc_episode, error_episode, summarize_disco, _score, "acc")

    tools_enabled = config.ablation != "no-search"
    setting = config.setting or "neutral"
    reader = roles.reader()
    agent_llm = None if roles.rules("agent") else roles.llm("agent")

    def new_agent() -> DiscoAgent:
        limits = ToolLimits(search_k=budgets["search_k"], max_searches=budgets["max_searches"] if tools_enabled else 0)
        tools = ToolBox(search, reader, limits)
        if agent_llm is None:
            return RulesDiscoAgent(tools, tools_enabled, setting)
        return ReactDiscoAgent(agent_llm, tools, setting, tools_enabled, agent_limits, native=native)

    simulator = RulesUserSimulator() if roles.rules("user") else LLMUserSimulator(roles.llm("user"))
    parts = DiscoParticipants(new_agent, simulator, judge,
                              DiscoLimits(budgets["max_turns"], budgets["max_tokens"]))
    specs = [EpisodeSpec(episode_key(s.id, setting, config.ablation), s.id, (s, setting, config.ablation)) for s in samples]

    async def episode(spec: EpisodeSpec) -> Any:
        sample, setting_, ablation = spec.payload
        return await run_disco_episode(sample, parts, spec.key, setting_, ablation)

    return ProtocolPlan(specs, episode, error_episode, summarize_disco, _score, "e2e_acc")
