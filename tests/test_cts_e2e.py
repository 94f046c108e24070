from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from clarisearch.cli.main import app
from clarisearch.llm.base import Message
from clarisearch.llm.scripted import ScriptedLLM
from clarisearch.runner.execute import execute
from clarisearch.schema.config import RunConfig
from clarisearch.schema.cts import CtsInstance
from clarisearch.schema.loader import load_records
from clarisearch.search.factory import demo_path

QUESTION_FOR = {"time": "Which year or time period do you mean?", "entity": "Which specific one do you mean?",
                "scope": "Which part or scope do you mean?", "definition": "By which measure or criterion?",
                "region": "Which country or region do you mean?"}


def demo_instances() -> list[CtsInstance]:
    return load_records(demo_path("cts.jsonl"), CtsInstance)


def oracle_clarifier(instances: list[CtsInstance]) -> ScriptedLLM:
    """Asks about the constraint the blurring removed (the test knows it; a clarifier would have to guess)."""
    by_blurred = {i.blurred_query: i for i in instances}

    def reply(messages: list[Message]) -> str:
        query = messages[-1]["content"].split("Query:")[-1].strip()
        inst = by_blurred[query]
        return json.dumps([QUESTION_FOR.get(inst.blur_types[0], "What exactly do you mean?")])

    return ScriptedLLM(reply, model_id="oracle-clarifier")


def oracle_answerer(instances: list[CtsInstance]) -> ScriptedLLM:
    """Answers with the words of the intent that the blurred query lacks, i.e. only what the intent states."""
    by_fused = {i.fused_query: i for i in instances}

    def reply(messages: list[Message]) -> str:
        intent = re.search(r"INTENT: (.*)\n", messages[-1]["content"]).group(1)  # type: ignore[union-attr]
        inst = by_fused[intent]
        blurred = set(re.findall(r"\w+", inst.blurred_query.lower()))
        missing = [w for w in re.findall(r"[\w'-]+", intent) if w.lower() not in blurred]
        return " ".join(missing) or "unknown"

    return ScriptedLLM(reply, model_id="oracle-ua")


def cts_config(**overrides: object) -> RunConfig:
    base = {"protocol": "cts", "data": "demo", "search": "demo", "ks": [1], "modes": ["batch"],
            "roles": {r: "rules" for r in ("agent", "clarifier", "user", "rewriter", "judge", "summarizer", "extractor")},
            "concurrency": 4}
    return RunConfig(**{**base, **overrides})  # type: ignore[arg-type]


def test_clarification_carries_information_end_to_end(tmp_path: Path) -> None:
    instances = demo_instances()
    overrides = {"clarifier": oracle_clarifier(instances), "user": oracle_answerer(instances)}
    summary = execute(cts_config(), tmp_path / "run", overrides=overrides, progress=False)
    systems = summary["systems"]
    assert systems["orig"]["score"]["n"] == len(instances) == systems["k1"]["score"]["n"]
    assert systems["k1"]["score"]["mean"] > systems["orig"]["score"]["mean"] + 5
    assert systems["k1"]["delta_vs_orig"]["ci_low"] > 0
    assert systems["k1"]["diagnostics"]["ua_unknown_rate"] < 0.2


def test_hidden_intent_never_reaches_clarifier_rewriter_or_agent(tmp_path: Path) -> None:
    instances = demo_instances()[:4]
    clarifier = ScriptedLLM(['["Which year do you mean?", "Which country?"]'], repeat_last=True)
    user = ScriptedLLM(["unknown"], repeat_last=True)
    rewriter = ScriptedLLM(["rewritten query about the topic"], repeat_last=True)
    agent = ScriptedLLM(['<tool_call>{"name": "search", "arguments": {"queries": ["topic"]}}</tool_call>',
                         '<tool_call>{"name": "visit", "arguments": {"urls": ["c-nobel-physics-1921"], "goal": "g"}}</tool_call>',
                         "<answer>An answer.</answer>"] * 40)
    summarizer = ScriptedLLM(["summary of the page"], repeat_last=True)

    def judge_reply(messages: list[Message]) -> str:
        ids = re.findall(r"- id=(\S+) \(weight", messages[-1]["content"])
        return json.dumps({"labels": [{"id": i, "label": "partial"} for i in ids]})

    overrides = {"clarifier": clarifier, "user": user, "rewriter": rewriter, "agent": agent,
                 "summarizer": summarizer, "judge": ScriptedLLM(judge_reply)}
    summary = execute(cts_config(ks=[2], limit=4, concurrency=1), tmp_path / "run", overrides=overrides, progress=False)
    assert summary["systems"]["k2"]["score"]["mean"] == 50.0
    usage = summary["systems"]["k2"]["usage_by_role"]
    assert usage["clarifier"]["calls"] == 1 and usage["user"]["calls"] == 2 and usage["rewriter"]["calls"] == 1
    assert usage["judge"]["calls"] == 1 and usage["agent"]["prompt_tokens"] > 0
    assert "clarifier" not in summary["systems"]["orig"]["usage_by_role"]
    for inst in instances:
        for name in ("clarifier", "rewriter", "agent", "summarizer"):
            assert inst.fused_query not in overrides[name].prompts_text(), name
        assert inst.fused_query in user.prompts_text()
        assert inst.blurred_query in clarifier.prompts_text()
    assert all(len(call) == 1 and "CLARIFICATION QUESTION" in call[0]["content"] for call in user.calls)


def test_cli_demo_run_and_report(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", "cts", "--data", "demo", "--k", "1", "--limit", "5", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["systems"]["k1"]["score"]["n"] == 5
    assert f"k1 {summary['systems']['k1']['score']['mean']:.1f}" in result.output  # the headline line
    report = runner.invoke(app, ["report", str(out)])
    assert report.exit_code == 0, report.output
    mean = summary["systems"]["k1"]["score"]["mean"]
    assert f"{mean:.3f}" in report.output and "Table 3" in report.output
    config = json.loads((out / "config.json").read_text())
    again = runner.invoke(app, ["run", "cts", "--data", "demo", "--k", "2", "--limit", "5", "--out", str(out), "--quiet"])
    assert again.exit_code == 2 and "different configuration" in again.output
    assert json.loads((out / "config.json").read_text()) == config


def test_adaptive_mode_sees_previous_answers(tmp_path: Path) -> None:
    clarifier = ScriptedLLM(['["Which year?"]', '["Which country?"]'] * 3)
    user = ScriptedLLM(["1921", "unknown"] * 3)
    overrides = {"clarifier": clarifier, "user": user}
    execute(cts_config(ks=[2], modes=["adaptive"], limit=3, concurrency=1), tmp_path / "run", overrides=overrides,
            progress=False)
    second_prompt = clarifier.calls[1][0]["content"]
    assert "Q1: Which year?" in second_prompt and "A1: 1921" in second_prompt
    rows = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    adaptive = [r for r in rows if r["system"] == "clarify"]
    assert all(r["mode"] == "adaptive" and r["answers"] == ["1921", "unknown"] for r in adaptive)
    assert all("(1921)" in r["rewrite"] for r in adaptive)


def test_native_tool_format_over_http(tmp_path: Path) -> None:
    from .mock_openai import MockOpenAI

    def reply(body: dict) -> object:
        if any(m["role"] == "tool" for m in body["messages"]):
            return "<answer>The 1921 Nobel Prize in Physics went to Albert Einstein.</answer>"
        return {"role": "assistant", "content": "", "tool_calls": [{"id": "t1", "type": "function", "function": {
            "name": "search", "arguments": json.dumps({"queries": [body["messages"][1]["content"]]})}}]}

    with MockOpenAI(default=reply) as mock:
        roles = {**cts_config().roles, "agent": f"local/agent?base_url={mock.base_url}"}
        summary = execute(cts_config(roles=roles, ks=[1], limit=2, tool_format="native"), tmp_path / "run", progress=False)
        assert all(r.get("tools") for r in mock.requests if not any(m["role"] == "tool" for m in r["messages"]))
    rows = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert all(r["agent"]["searches"] == 1 and r["agent"]["termination"] == "answered" for r in rows)
    assert summary["systems"]["orig"]["score"]["n"] == 2


def test_ask_gate_skips_clarification_and_is_reported(tmp_path: Path) -> None:
    gate_and_questions = ScriptedLLM(lambda messages: (
        json.dumps({"ask": "1921" in messages[-1]["content"] or "Nobel" in messages[-1]["content"], "reason": "r"})
        if "decide whether" in messages[-1]["content"] else json.dumps(["Which year do you mean?"])))
    summary = execute(cts_config(limit=4, ask_gate=True, clarifier_prompt="reference"), tmp_path / "run",
                      overrides={"clarifier": gate_and_questions}, progress=False)
    rows = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    clarify = [r for r in rows if r["system"] == "clarify"]
    skipped = [r for r in clarify if not r["asked"]]
    assert skipped and all(r["questions"] == [] and r["rewrite"] == r["agent"]["query"] for r in skipped)
    asked = [r for r in clarify if r["asked"]]
    assert asked and all(len(r["questions"]) == 1 for r in asked)
    assert summary["systems"]["k1"]["ask_rate"] == len(asked) / len(clarify)
    assert summary["systems"]["k1"]["diagnostics"]["n_instances"] == len(asked)
    question_prompts = [c[-1]["content"] for c in gate_and_questions.calls if "decide whether" not in c[-1]["content"]]
    assert question_prompts and all("what a user would know" in p for p in question_prompts)  # the reference prompt


async def test_rules_ask_gate() -> None:
    from clarisearch.agents.clarifier import RulesAskGate
    from clarisearch.schema.views import ClarifierView

    gate = RulesAskGate()
    assert (await gate.decide(ClarifierView("What is the largest lake?"))).ask
    assert (await gate.decide(ClarifierView("Who is the current president of the World Bank?"))).ask
    assert not (await gate.decide(ClarifierView("Who wrote the novel Nineteen Eighty-Four by George Orwell?"))).ask
