"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, SGLang, Ollama, llama.cpp, DeepSeek, ...).

Built on the official `openai` SDK (async). The SDK's own retries are off: retries are ours,
bounded, and only for transient errors. The API key is read from the environment variable
named in the config; neither the key nor its value is ever written anywhere.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import openai

from clarisearch.llm.base import (
    Completion,
    ContextOverflowError,
    DecodingParams,
    Message,
    PermanentLLMError,
    ToolCallRequest,
    ToolSchemas,
    TransientLLMError,
    Usage,
)

_OVERFLOW_MARKERS = ("context length", "context_length", "maximum context", "too many tokens", "prompt is too long")


def classify_openai_error(exc: Exception) -> Exception:
    """Map an SDK exception to our transient/permanent error types."""
    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError, openai.RateLimitError,
                        openai.InternalServerError)):
        return TransientLLMError(f"{type(exc).__name__}: {exc}")
    if isinstance(exc, openai.APIStatusError):
        if exc.status_code in (408, 409, 425, 429) or exc.status_code >= 500:
            return TransientLLMError(f"HTTP {exc.status_code}: {exc}")
        message = str(exc).lower()
        if any(marker in message for marker in _OVERFLOW_MARKERS):
            return ContextOverflowError(f"HTTP {exc.status_code}: {exc}")
        return PermanentLLMError(f"HTTP {exc.status_code}: {exc}")
    return PermanentLLMError(f"{type(exc).__name__}: {exc}")


class OpenAICompatLLM:
    """Chat completions against one endpoint, with a concurrency limit shared per endpoint."""

    def __init__(
        self,
        model: str,
        base_url: str | None,
        api_key_env: str | None,
        semaphore: asyncio.Semaphore,
        timeout_s: float = 300.0,
        extra_body: dict[str, Any] | None = None,
    ):
        self.model = model
        self.model_id = f"{base_url or 'openai'}::{model}"
        key = os.environ.get(api_key_env) if api_key_env else None
        self._client = openai.AsyncOpenAI(
            api_key=key or "not-needed", base_url=base_url, timeout=timeout_s, max_retries=0
        )
        self._semaphore = semaphore
        self._extra_body = extra_body or {}

    async def complete(self, messages: list[Message], params: DecodingParams | None = None,
                       tools: ToolSchemas | None = None) -> Completion:
        p = params or DecodingParams()
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": p.temperature}
        if p.max_tokens is not None:
            kwargs["max_tokens"] = p.max_tokens
        if p.stop:
            kwargs["stop"] = list(p.stop)
        if p.seed is not None:
            kwargs["seed"] = p.seed
        if tools:
            kwargs["tools"] = tools
        if self._extra_body:
            kwargs["extra_body"] = self._extra_body
        async with self._semaphore:
            started = time.perf_counter()
            try:
                response = await self._client.chat.completions.create(**kwargs)
            except openai.OpenAIError as exc:
                raise classify_openai_error(exc) from exc
            latency = time.perf_counter() - started
        if not response.choices:
            raise TransientLLMError("endpoint returned no choices")
        choice = response.choices[0]
        usage = response.usage
        return Completion(
            text=choice.message.content or "",
            usage=Usage(usage.prompt_tokens or 0, usage.completion_tokens or 0) if usage else Usage(),
            latency_s=latency,
            model=response.model or self.model,
            finish_reason=choice.finish_reason,
            tool_calls=[ToolCallRequest(call.id, call.function.name, call.function.arguments or "{}")
                        for call in (choice.message.tool_calls or []) if getattr(call, "function", None)],
        )
