"""Bounded retries with exponential backoff, for transient errors only."""

from __future__ import annotations

import asyncio
import random

from clarisearch.llm.base import LLM, Completion, DecodingParams, Message, ToolSchemas, TransientLLMError


class RetryingLLM:
    """Wraps an LLM; retries TransientLLMError up to `max_attempts` in all, never other errors."""

    def __init__(self, inner: LLM, max_attempts: int = 4, base_delay_s: float = 1.0, max_delay_s: float = 30.0):
        self.inner = inner
        self.model_id = inner.model_id
        self.max_attempts = max(1, max_attempts)
        self.base_delay_s = base_delay_s
        self.max_delay_s = max_delay_s
        self.retries = 0

    async def complete(self, messages: list[Message], params: DecodingParams | None = None,
                       tools: ToolSchemas | None = None) -> Completion:
        for attempt in range(1, self.max_attempts + 1):
            try:
                return await self.inner.complete(messages, params, tools)
            except TransientLLMError:
                if attempt == self.max_attempts:
                    raise
                self.retries += 1
                delay = min(self.max_delay_s, self.base_delay_s * 2 ** (attempt - 1))
                await asyncio.sleep(delay * (0.5 + random.random() / 2))
        raise AssertionError("unreachable")
