from __future__ import annotations

from pathlib import Path

import pytest

from clarisearch.llm.base import CacheMissError, DecodingParams, PermanentLLMError, TransientLLMError
from clarisearch.llm.cache import CachedLLM, ResponseStore, request_hash
from clarisearch.llm.json_output import complete_json, extract_json
from clarisearch.llm.registry import (
    EndpointSettings,
    LLMFactory,
    SpecError,
    parse_role_overrides,
    parse_spec,
    resolve_bindings,
)
from clarisearch.llm.retry import RetryingLLM
from clarisearch.llm.scripted import ScriptedLLM
from clarisearch.runner.context import EpisodeContext, enter_episode, exit_episode

from .mock_openai import MockOpenAI

MSG = [{"role": "user", "content": "hi"}]


async def test_cache_hit_miss_and_replay(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path / "c.sqlite")
    inner = ScriptedLLM(["first", "second"], model_id="m")
    cached = CachedLLM(inner, store, "use")
    a = await cached.complete(MSG)
    b = await cached.complete(MSG)
    assert (a.text, a.cache_hit) == ("first", False)
    assert (b.text, b.cache_hit) == ("first", True) and b.usage.total == 0
    assert len(inner.calls) == 1
    c = await cached.complete(MSG, DecodingParams(temperature=0.7))  # different decoding params -> miss
    assert c.text == "second" and not c.cache_hit
    replay = CachedLLM(ScriptedLLM([], model_id="m"), store, "replay")
    assert (await replay.complete(MSG)).text == "first"
    with pytest.raises(CacheMissError):
        await replay.complete([{"role": "user", "content": "never seen"}])


def test_request_hash_keys_only_output_relevant_fields() -> None:
    base = request_hash("m", MSG, DecodingParams())
    assert base == request_hash("m", [dict(MSG[0])], DecodingParams())  # type: ignore[list-item]
    assert base != request_hash("other", MSG, DecodingParams())
    assert base != request_hash("m", MSG, DecodingParams(max_tokens=5))


async def test_retry_only_on_transient_errors() -> None:
    flaky = ScriptedLLM([TransientLLMError("429"), TransientLLMError("503"), "done"])
    assert (await RetryingLLM(flaky, max_attempts=3, base_delay_s=0).complete(MSG)).text == "done"
    assert len(flaky.calls) == 3
    broken = ScriptedLLM([PermanentLLMError("400 bad request"), "never"])
    with pytest.raises(PermanentLLMError):
        await RetryingLLM(broken, max_attempts=5, base_delay_s=0).complete(MSG)
    assert len(broken.calls) == 1
    exhausted = ScriptedLLM([TransientLLMError("x")] * 3)
    with pytest.raises(TransientLLMError):
        await RetryingLLM(exhausted, max_attempts=3, base_delay_s=0).complete(MSG)
    assert len(exhausted.calls) == 3


def test_extract_json_variants() -> None:
    assert extract_json('["a", "b"]') == ["a", "b"]
    assert extract_json('<think>hmm {"x"}</think>```json\n{"a": 1}\n```') == {"a": 1}
    assert extract_json('Sure! Here you go: ["q1"] hope it helps') == ["q1"]
    with pytest.raises(ValueError):
        extract_json("no json here")


async def test_complete_json_reasks_then_records_typed_failure() -> None:
    def need_list(v: object) -> list[str]:
        if not isinstance(v, list):
            raise ValueError("need a list")
        return v  # type: ignore[return-value]

    good = await complete_json(ScriptedLLM(["nope", '["ok"]']), MSG, need_list, max_reasks=2)
    assert good.parse_ok and good.value == ["ok"] and len(good.raw_outputs) == 2
    bad_llm = ScriptedLLM(["a", "b", "c", "d"])
    bad = await complete_json(bad_llm, MSG, need_list, max_reasks=2)
    assert not bad.parse_ok and bad.value is None and len(bad.raw_outputs) == 3 and bad.error
    assert "could not be used" in bad_llm.calls[1][-1]["content"]


def test_spec_parsing_and_role_binding() -> None:
    spec = parse_spec("vllm/Qwen/Qwen2.5-7B-Instruct?base_url=http://x:1/v1&reasoning_effort=high")
    assert spec.provider == "vllm" and spec.model == "Qwen/Qwen2.5-7B-Instruct"
    assert spec.option("base_url") == "http://x:1/v1" and spec.label == "vllm/Qwen/Qwen2.5-7B-Instruct"
    bindings = resolve_bindings("openai/gpt-4o", parse_role_overrides(["judge=rules"]))
    assert bindings["clarifier"] == "openai/gpt-4o" and bindings["judge"] == "rules"
    assert set(resolve_bindings(None, {}).values()) == {"rules"}
    with pytest.raises(SpecError):
        parse_role_overrides(["grader=rules"])
    with pytest.raises(SpecError):
        parse_spec("gpt-4o")


async def test_openai_sdk_backend_against_local_mock_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MOCK_KEY", "sk-secret-value")
    with MockOpenAI(default="hello from mock") as mock:
        mock.queue.extend([(429, "slow down"), (500, "boom")])
        factory = LLMFactory(EndpointSettings(cache_mode="use", cache_path=tmp_path / "c.sqlite", base_delay_s=0))
        llm = factory.build("clarifier", f"mock/my-model?base_url={mock.base_url}&api_key_env=MOCK_KEY&seed_style=x")
        events: list[dict[str, object]] = []
        ctx = EpisodeContext(episode_key="ep1", sink=events.append)
        token = enter_episode(ctx)
        try:
            first = await llm.complete(MSG, DecodingParams(temperature=0.0, max_tokens=20))
            second = await llm.complete(MSG, DecodingParams(temperature=0.0, max_tokens=20))
        finally:
            exit_episode(token)
        assert first.text == "hello from mock" and not first.cache_hit
        assert first.usage.prompt_tokens == 11 and first.usage.completion_tokens == 7
        assert second.cache_hit and second.usage.total == 0
        assert len(mock.requests) == 3  # 429 and 500 retried, then success; the repeat came from the cache
        assert mock.requests[-1]["model"] == "my-model" and mock.requests[-1]["max_tokens"] == 20
        assert mock.requests[-1]["seed_style"] == "x"  # unknown spec options go in the request body
        assert mock.headers[-1]["authorization"] == "Bearer sk-secret-value"
        assert ctx.usage["clarifier"].prompt_tokens == 11 and ctx.llm_calls["clarifier"] == 2
        llm_events = [e for e in events if e["type"] == "llm_call"]
        assert [e["cache_hit"] for e in llm_events] == [False, True]
        assert all("sk-secret-value" not in str(e) for e in events)


async def test_permanent_http_error_is_not_retried(tmp_path: Path) -> None:
    with MockOpenAI() as mock:
        mock.queue.append((400, "bad request"))
        factory = LLMFactory(EndpointSettings(cache_mode="off", base_delay_s=0))
        llm = factory.build("judge", f"mock/m?base_url={mock.base_url}")
        with pytest.raises(PermanentLLMError):
            await llm.complete(MSG)
        assert len(mock.requests) == 1


async def test_native_tool_calls_through_the_sdk_and_cache(tmp_path: Path) -> None:
    from clarisearch.agents.tools import TOOL_SCHEMAS

    call = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "search", "arguments": '{"queries": ["x"]}'}}]}
    with MockOpenAI(default=lambda body: call) as mock:
        factory = LLMFactory(EndpointSettings(cache_mode="use", cache_path=tmp_path / "c.sqlite", base_delay_s=0))
        llm = factory.build("agent", f"mock/m?base_url={mock.base_url}")
        first = await llm.complete(MSG, tools=TOOL_SCHEMAS)
        again = await llm.complete(MSG, tools=TOOL_SCHEMAS)
        without = await llm.complete(MSG)
        assert mock.requests[0]["tools"][0]["function"]["name"] == "search"
        assert "tools" not in mock.requests[1] and len(mock.requests) == 2  # the tool-less request is keyed apart
    assert [(c.id, c.name, c.arguments) for c in first.tool_calls] == [("call_1", "search", '{"queries": ["x"]}')]
    assert again.cache_hit and again.tool_calls == first.tool_calls
    assert not without.cache_hit


def test_event_log_records_only_new_messages_per_call() -> None:
    from clarisearch.llm.metered import new_messages

    convo = [{"role": "system", "content": "s"}, {"role": "user", "content": "q"},
             {"role": "assistant", "content": "a1"}, {"role": "user", "content": "obs1"}]
    assert new_messages(convo) == [{"role": "user", "content": "obs1"}]  # type: ignore[arg-type]
    assert new_messages(convo[:2]) == convo[:2]  # type: ignore[arg-type]
