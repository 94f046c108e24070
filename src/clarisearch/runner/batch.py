"""Run many episodes concurrently, resumably: finished keys are skipped, failures are typed."""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from clarisearch.llm.base import LLMError
from clarisearch.runner.context import EpisodeContext, enter_episode, exit_episode
from clarisearch.runner.store import RunStore
from clarisearch.search.base import SearchError


@dataclass(frozen=True)
class EpisodeSpec:
    """A unit of work: a deterministic key plus whatever the episode function needs."""

    key: str
    instance_id: str
    payload: Any


EpisodeFn = Callable[[EpisodeSpec], Awaitable[BaseModel]]
ErrorFactory = Callable[[EpisodeSpec, str, str], BaseModel]
ProgressFn = Callable[[dict[str, Any]], None]


def _finish(result: BaseModel, ctx: EpisodeContext, started: float, attempt: int) -> dict[str, Any]:
    record = result.model_dump(mode="json")
    record["usage"] = {role: {"prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens,
                              "calls": ctx.llm_calls.get(role, 0), "latency_s": round(ctx.latency_s.get(role, 0.0), 3)}
                       for role, u in ctx.usage.items()}
    record["llm_calls"] = sum(ctx.llm_calls.values())
    record["cache_hits"] = ctx.cache_hits
    record["cost_usd"] = round(ctx.cost_usd, 6)
    record["seconds"] = round(time.perf_counter() - started, 3)
    record["attempt"] = attempt
    return record


async def run_episodes(
    store: RunStore,
    specs: Sequence[EpisodeSpec],
    episode_fn: EpisodeFn,
    error_result: ErrorFactory,
    concurrency: int = 4,
    on_result: ProgressFn | None = None,
    retry_errors: bool = True,
) -> list[dict[str, Any]]:
    """Run the specs not yet finished in `store` (errored ones again if `retry_errors`)."""
    previous = {r["key"]: r for r in store.results()}
    todo = [s for s in specs if s.key not in previous or (retry_errors and previous[s.key].get("status") == "error")]
    semaphore = asyncio.Semaphore(max(1, concurrency))
    written: list[dict[str, Any]] = []

    async def one(spec: EpisodeSpec) -> None:
        async with semaphore:
            attempt = int(previous.get(spec.key, {}).get("attempt", 0)) + 1
            ctx = EpisodeContext(episode_key=spec.key, sink=store.emit)
            token = enter_episode(ctx)
            started = time.perf_counter()
            ctx.emit("episode_start", attempt=attempt, instance_id=spec.instance_id)
            try:
                result = await episode_fn(spec)
            except (LLMError, SearchError) as exc:
                kind = getattr(exc, "kind", "search_error")
                result = error_result(spec, kind, str(exc)[:4000])
            except Exception as exc:  # a bug must not lose the other episodes; it is recorded and counted
                ctx.emit("exception", traceback=traceback.format_exc()[-8000:])
                result = error_result(spec, "internal_error", f"{type(exc).__name__}: {exc}")
            finally:
                exit_episode(token)
            record = _finish(result, ctx, started, attempt)
            store.append_result(record)
            ctx.emit("episode_end", status=record["status"], error_kind=record.get("error_kind"))
            written.append(record)
            if on_result:
                on_result(record)

    await asyncio.gather(*(one(spec) for spec in todo))
    return written
