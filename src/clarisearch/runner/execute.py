"""Execute (or resume) a run from its RunConfig: the layer between the CLI and the episode functions."""

from __future__ import annotations

import asyncio
import platform
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clarisearch import __version__
from clarisearch.llm.base import LLM
from clarisearch.runner.batch import EpisodeFn, EpisodeSpec, ErrorFactory, run_episodes
from clarisearch.runner.progress import RunProgress
from clarisearch.runner.store import ConfigMismatchError, RunStore
from clarisearch.schema.config import RunConfig


@dataclass
class ProtocolPlan:
    """What a protocol hands the runner: episodes to run and how to run, fail, score and summarize them."""

    specs: list[EpisodeSpec]
    episode_fn: EpisodeFn
    error_fn: ErrorFactory
    summarize: Callable[[list[dict[str, Any]]], dict[str, Any]]
    score_of: Callable[[dict[str, Any]], float | None]
    score_name: str


Planner = Callable[[RunConfig, dict[str, LLM] | None], Awaitable[ProtocolPlan]]


def planner_for(protocol: str) -> Planner:
    if protocol == "cts":
        from clarisearch.protocols.cts_plan import plan_cts

        return plan_cts
    if protocol in ("disco", "qc"):
        from clarisearch.protocols.disco_plan import plan_disco

        return plan_disco
    raise ValueError(f"unknown protocol {protocol!r}")


async def execute_async(config: RunConfig, run_dir: str | Path, overrides: dict[str, LLM] | None = None,
                        progress: bool = True, resuming: bool = False) -> dict[str, Any]:
    """Run every unfinished episode of `config` into `run_dir`, then write the summary."""
    before = config.config_hash()
    plan = await planner_for(config.protocol)(config, overrides)  # fills data/search/prompt fingerprints
    store = RunStore(run_dir)
    if resuming and before != config.config_hash():
        raise ConfigMismatchError(
            f"cannot resume {run_dir}: data, prompts or search changed since the run started "
            f"(hash {before[:12]} -> {config.config_hash()[:12]})")
    manifest = {"run_id": uuid.uuid4().hex[:12], "created": time.time(), "clarisearch_version": __version__,
                "python": platform.python_version(), "protocol": config.protocol, "status": "running"}
    store.init(config.model_dump(mode="json"), config.config_hash(), manifest)
    done = {r["key"] for r in store.results() if r.get("status") == "ok"}
    already = sum(1 for s in plan.specs if s.key in done)
    store.update_manifest(status="running", episodes_planned=len(plan.specs))
    with RunProgress(len(plan.specs), already, plan.score_of, plan.score_name, enabled=progress) as bar:
        await run_episodes(store, plan.specs, plan.episode_fn, plan.error_fn, config.concurrency, on_result=bar.update)
    keys = {s.key for s in plan.specs}
    results = [r for r in store.results() if r["key"] in keys]
    summary = {"config_hash": config.config_hash(), "roles": config.roles, **plan.summarize(results)}
    store.write_summary(summary)
    errors = sum(r["status"] == "error" for r in results)
    store.update_manifest(status="complete" if errors == 0 else "complete_with_errors", finished=time.time(),
                          episodes=len(results), errors=errors)
    return summary


def execute(config: RunConfig, run_dir: str | Path, overrides: dict[str, LLM] | None = None,
            progress: bool = True, resuming: bool = False) -> dict[str, Any]:
    """Sync wrapper for the CLI."""
    return asyncio.run(execute_async(config, run_dir, overrides, progress, resuming))
