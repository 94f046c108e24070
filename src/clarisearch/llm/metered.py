"""Role-bound wrapper: accounts tokens/latency per role and logs every call as an event."""

from __future__ import annotations

from clarisearch.llm.base import LLM, Completion, DecodingParams, LLMError, Message, ToolSchemas, Usage
from clarisearch.runner.context import current_episode


def new_messages(messages: list[Message]) -> list[Message]:
    """The messages after the model's last turn: what this call added to the conversation.

    Logging only these keeps the event log linear in the conversation length (the full prompt is the
    concatenation of the conversation's earlier events)."""
    last = max((i for i, m in enumerate(messages) if m["role"] == "assistant"), default=-1)
    return messages[last + 1:]


class MeteredLLM:
    """The LLM a component actually holds: `role` names it in events and usage accounting."""

    def __init__(self, role: str, inner: LLM, log_prompts: bool = True, prices: tuple[float, float] = (0.0, 0.0)):
        self.role = role
        self.prices = prices
        self.inner = inner
        self.model_id = inner.model_id
        self.log_prompts = log_prompts

    async def complete(self, messages: list[Message], params: DecodingParams | None = None,
                       tools: ToolSchemas | None = None) -> Completion:
        ctx = current_episode()
        try:
            completion = await self.inner.complete(messages, params, tools)
        except LLMError as exc:
            ctx.emit("llm_error", role=self.role, model=self.model_id, error_kind=exc.kind, error=str(exc)[:2000])
            raise
        ctx.usage.setdefault(self.role, Usage()).add(completion.usage)
        ctx.llm_calls[self.role] = ctx.llm_calls.get(self.role, 0) + 1
        ctx.cache_hits += int(completion.cache_hit)
        ctx.latency_s[self.role] = ctx.latency_s.get(self.role, 0.0) + completion.latency_s
        cost = (completion.usage.prompt_tokens * self.prices[0] + completion.usage.completion_tokens * self.prices[1]) / 1e6
        ctx.cost_usd += cost
        ctx.emit(
            "llm_call",
            role=self.role,
            model=self.model_id,
            request_hash=completion.request_hash,
            prompt_tokens=completion.usage.prompt_tokens,
            completion_tokens=completion.usage.completion_tokens,
            latency_s=round(completion.latency_s, 4),
            cache_hit=completion.cache_hit,
            cost_usd=round(cost, 6),
            n_messages=len(messages),
            new_messages=new_messages(messages) if self.log_prompts else None,
            output=completion.text,
            tool_calls=[c.as_message_part() for c in completion.tool_calls] or None,
        )
        return completion
