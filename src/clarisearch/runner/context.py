"""Per-episode context (contextvars): where events go, and the usage tally of the episode."""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from clarisearch.llm.base import Usage

EventSink = Callable[[dict[str, Any]], None]


@dataclass
class EpisodeContext:
    """What components running inside one episode report to."""

    episode_key: str = ""
    sink: EventSink | None = None
    usage: dict[str, Usage] = field(default_factory=dict)
    llm_calls: dict[str, int] = field(default_factory=dict)
    cache_hits: int = 0
    latency_s: dict[str, float] = field(default_factory=dict)
    cost_usd: float = 0.0

    def emit(self, type_: str, role: str = "", **payload: Any) -> None:
        if self.sink is not None:
            self.sink({"type": type_, "role": role, "episode_key": self.episode_key, "time": time.time(), **payload})

    def total_usage(self) -> Usage:
        total = Usage()
        for usage in self.usage.values():
            total.add(usage)
        return total


_current: contextvars.ContextVar[EpisodeContext | None] = contextvars.ContextVar("clarisearch_episode", default=None)


def current_episode() -> EpisodeContext:
    """The running episode's context (a detached one outside any episode)."""
    ctx = _current.get()
    if ctx is None:
        ctx = EpisodeContext()
        _current.set(ctx)
    return ctx


def enter_episode(ctx: EpisodeContext) -> contextvars.Token[EpisodeContext | None]:
    return _current.set(ctx)


def exit_episode(token: contextvars.Token[EpisodeContext | None]) -> None:
    _current.reset(token)
