"""A scripted fake LLM for tests: a list of outputs or a function of the messages; records calls."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from clarisearch.llm.base import Completion, DecodingParams, LLMError, Message, ToolSchemas, Usage

Script = Sequence[str | Completion | Exception] | Callable[[list[Message]], str | Completion]


class ScriptedLLM:
    """Returns scripted outputs in order (or computed from the messages) and keeps every request."""

    def __init__(self, script: Script, model_id: str = "scripted", repeat_last: bool = False):
        self.model_id = model_id
        self._script = script
        self._repeat_last = repeat_last
        self.calls: list[list[Message]] = []
        self.tools_seen: list[ToolSchemas | None] = []

    async def complete(self, messages: list[Message], params: DecodingParams | None = None,
                       tools: ToolSchemas | None = None) -> Completion:
        self.calls.append([dict(m) for m in messages])  # type: ignore[misc]
        self.tools_seen.append(tools)
        if callable(self._script):
            output: str | Completion | Exception = self._script(messages)
        else:
            index = len(self.calls) - 1
            if index >= len(self._script):
                if not (self._repeat_last and self._script):
                    raise LLMError(f"scripted LLM {self.model_id!r} ran out of outputs after {len(self._script)}")
                index = len(self._script) - 1
            output = self._script[index]
        if isinstance(output, Exception):
            raise output
        if isinstance(output, Completion):
            return output
        prompt_chars = sum(len(m["content"]) for m in messages)
        return Completion(
            text=output,
            usage=Usage(prompt_tokens=max(1, prompt_chars // 4), completion_tokens=max(1, len(output) // 4)),
            model=self.model_id,
        )

    def prompts_text(self) -> str:
        """Everything this model was ever shown, for leakage assertions."""
        return "\n".join(m["content"] for call in self.calls for m in call)
