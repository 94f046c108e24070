from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from clarisearch.llm.base import Message, PermanentLLMError
from clarisearch.llm.scripted import ScriptedLLM
from clarisearch.runner.execute import execute
from clarisearch.runner.store import ConfigMismatchError, RunStore
from clarisearch.schema.config import RunConfig

from .conftest import ZH
from .mock_openai import MockOpenAI

ROLES = {r: "rules" for r in ("agent", "clarifier", "user", "rewriter", "judge", "summarizer", "extractor")}


class Killed(BaseException):
    """Stands in for the process dying (not an Exception: nothing may catch and record it)."""


def zh_config(data: Path, **kw: object) -> RunConfig:
    return RunConfig(**{"protocol": "cts", "data": str(data), "search": f"corpus:{ZH / 'corpus.jsonl'}",
                        "ks": [1, 2], "modes": ["batch"], "roles": ROLES, "concurrency": 1, **kw})  # type: ignore[arg-type]


def dying_clarifier(after: int) -> ScriptedLLM:
    count = {"n": 0}

    def reply(messages: list[Message]) -> str:
        count["n"] += 1
        if count["n"] > after:
            raise Killed()
        return '["您问的是哪一年？", "您说的是按什么标准？"]'

    return ScriptedLLM(reply)


def test_resume_after_crash_has_no_duplicate_or_lost_episode(tmp_path: Path) -> None:
    run = tmp_path / "run"
    config = zh_config(ZH / "cts.jsonl")
    with pytest.raises(Killed):
        execute(config, run, overrides={"clarifier": dying_clarifier(after=5)}, progress=False)
    store = RunStore(run)
    partial = store.results()
    assert 0 < len(partial) < 24
    assert json.loads((run / "manifest.json").read_text())["status"] == "running"
    stored = RunConfig.model_validate({k: v for k, v in store.read_config().items() if k != "config_hash"})
    summary = execute(stored, run, overrides={"clarifier": dying_clarifier(after=10**6)}, progress=False, resuming=True)
    lines = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    keys = Counter(r["key"] for r in lines)
    assert len(keys) == 8 * 3 and max(keys.values()) == 1  # 8 instances x (orig, k1, k2), each written once
    assert {r["key"] for r in partial} <= set(keys)
    assert summary["systems"]["k2"]["score"]["n"] == 8
    assert json.loads((run / "manifest.json").read_text())["status"] == "complete"


def test_resume_refuses_changed_data(tmp_path: Path) -> None:
    data = tmp_path / "cts.jsonl"
    shutil.copy(ZH / "cts.jsonl", data)
    execute(zh_config(data, limit=2), tmp_path / "run", progress=False)
    data.write_text("\n".join(data.read_text().splitlines()[1:]) + "\n", encoding="utf-8")
    store = RunStore(tmp_path / "run")
    stored = RunConfig.model_validate({k: v for k, v in store.read_config().items() if k != "config_hash"})
    with pytest.raises(ConfigMismatchError):
        execute(stored, tmp_path / "run", progress=False, resuming=True)


def test_failed_llm_calls_are_typed_errors_retried_on_resume(tmp_path: Path) -> None:
    def flaky(messages: list[Message]) -> str:
        raise PermanentLLMError("HTTP 400: model not found")

    run = tmp_path / "run"
    summary = execute(zh_config(ZH / "cts.jsonl", ks=[1], limit=3), run, overrides={"clarifier": ScriptedLLM(flaky)},
                      progress=False)
    k1 = summary["systems"]["k1"]
    assert k1["errors"] == 3 and k1["error_kinds"] == {"permanent": 3} and k1["score"]["n"] == 0
    assert summary["systems"]["orig"]["score"]["n"] == 3
    good = ScriptedLLM(['["您问的是哪一年？"]'], repeat_last=True)
    stored = RunConfig.model_validate({k: v for k, v in RunStore(run).read_config().items() if k != "config_hash"})
    summary = execute(stored, run, overrides={"clarifier": good}, progress=False, resuming=True)
    assert summary["systems"]["k1"]["errors"] == 0 and summary["systems"]["k1"]["score"]["n"] == 3
    records = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    assert max(r["attempt"] for r in records) == 2 and len(RunStore(run).results()) == 6


def test_secrets_never_written_to_run_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-test-THIS-MUST-NOT-LEAK"
    monkeypatch.setenv("JUDGE_KEY", secret)
    with MockOpenAI(default='{"labels": []}') as mock:
        roles = {**ROLES, "user": f"mock/ua-model?base_url={mock.base_url}&api_key_env=JUDGE_KEY"}
        mock.default = "unknown"
        execute(zh_config(ZH / "cts.jsonl", ks=[1], limit=2, roles=roles), tmp_path / "run", progress=False)
        assert mock.headers and all(h["authorization"] == f"Bearer {secret}" for h in mock.headers)
    for path in (tmp_path / "run").iterdir():
        assert secret not in path.read_text(encoding="utf-8"), path.name
    assert "JUDGE_KEY" in (tmp_path / "run" / "config.json").read_text()


def test_providers_file_prices_and_refused_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clarisearch.cli.common import load_providers

    monkeypatch.setenv("GPU_KEY", "k")
    with MockOpenAI(default="unknown") as mock:
        file = tmp_path / "providers.toml"
        file.write_text(f'[providers.gpu]\nbase_url = "{mock.base_url}"\napi_key_env = "GPU_KEY"\n'
                        "usd_per_1m_prompt = 2.0\nusd_per_1m_completion = 10.0\n")
        providers = load_providers(file)
        roles = {**ROLES, "user": "gpu/ua-model"}
        execute(zh_config(ZH / "cts.jsonl", ks=[1], limit=2, roles=roles, providers=providers), tmp_path / "run",
                progress=False)
        assert len(mock.requests) == 2 and mock.requests[0]["model"] == "ua-model"
        assert "usd_per_1m_prompt" not in mock.requests[0]
    clarify = [r for r in RunStore(tmp_path / "run").results() if r["system"] == "clarify"]
    assert all(r["cost_usd"] == pytest.approx((11 * 2.0 + 7 * 10.0) / 1e6) for r in clarify)
    bad = tmp_path / "bad.toml"
    bad.write_text('[providers.x]\nbase_url = "http://h/v1"\napi_key = "sk-123"\n')
    with pytest.raises(ValueError, match="never store keys"):
        load_providers(bad)
