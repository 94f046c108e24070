"""Bounded retries with exponential backoff, for transient errors only."""

from __future__ import annotations

import asyncio
import random

from clarisearch.llm.base import LLM, Completion, DecodingParams, Message, ToolSchemas, TransientLLMError
from clarisearch.runner.context import current_episode


class RetryingLLM:
    """Wraps an LLM; retries TransientLLMError up to `max_attempts` in all, never other errors."""

    def __init__(self, inner: LLM, max_attempts: int = 4, base_delay_s: float = 1.0, max_delay_s: float = 30.0):
        self.inner = inner
        self.model_id = inner.model_id
        self.max_attempts = max(1, max_attempts)
        self.base_delay_s = base_delay_s
        self.max_delay_s = max_delay_s

    async def complete(self, messages: list[Message], params: DecodingParams | None = None,
                       tools: ToolSchemas | None = None) -> Completion:
        for attempt in range(1, self.max_attempts + 1):
            try:
                return await self.inner.complete(messages, params, tools)
            except TransientLLMError as exc:
                if attempt == self.max_attempts:
                    raise
                delay = min(self.max_delay_s, self.base_delay_s * 2 ** (attempt - 1))
                current_episode().emit("llm_retry", model=self.model_id, attempt=attempt, error=str(exc)[:500])
                await asyncio.sleep(delay * (0.5 + random.random() / 2))
        raise AssertionError("unreachable")
