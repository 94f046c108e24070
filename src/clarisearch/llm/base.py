"""The LLM protocol every backend implements, and the typed errors it may raise."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NotRequired, Protocol, TypedDict, runtime_checkable

ToolSchemas = list[dict[str, Any]]


class Message(TypedDict):
    """A chat message; assistant messages may carry native `tool_calls`, tool messages a `tool_call_id`."""

    role: str
    content: str
    tool_calls: NotRequired[list[dict[str, Any]]]
    tool_call_id: NotRequired[str]


@dataclass(frozen=True)
class ToolCallRequest:
    """A native function call requested by the model (arguments as the raw JSON string it sent)."""

    id: str
    name: str
    arguments: str

    def as_message_part(self) -> dict[str, Any]:
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class Completion:
    """One model answer. A cache hit reports zero usage: it cost nothing this time."""

    text: str
    usage: Usage = field(default_factory=Usage)
    latency_s: float = 0.0
    model: str = ""
    cache_hit: bool = False
    request_hash: str = ""
    finish_reason: str | None = None
    tool_calls: list[ToolCallRequest] = field(default_factory=list)


@dataclass(frozen=True)
class DecodingParams:
    temperature: float = 0.0
    max_tokens: int | None = None
    stop: tuple[str, ...] = ()
    seed: int | None = None


class LLMError(Exception):
    """Base of every LLM failure; `kind` is what reports count."""

    kind = "llm_error"


class TransientLLMError(LLMError):
    """Timeouts, rate limits, 5xx, dropped connections: worth retrying."""

    kind = "transient"


class PermanentLLMError(LLMError):
    """Bad request, auth, unknown model, context overflow: retrying will not help."""

    kind = "permanent"


class ContextOverflowError(PermanentLLMError):
    kind = "context_overflow"


class CacheMissError(PermanentLLMError):
    """Replay mode found no cached response for a request."""

    kind = "cache_miss"


@runtime_checkable
class LLM(Protocol):
    """An async chat model. `model_id` names what produced the output (it keys the cache)."""

    model_id: str

    async def complete(self, messages: list[Message], params: DecodingParams | None = None,
                       tools: ToolSchemas | None = None) -> Completion: ...
