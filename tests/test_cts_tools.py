from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from clarisearch.llm.base import Message
from clarisearch.llm.scripted import ScriptedLLM
from clarisearch.metrics.robustness import judge_stability, rewrite_protocol, rewrite_similarity, ua_agreement
from clarisearch.protocols.gold import build_gold
from clarisearch.protocols.rejudge import rejudge_run
from clarisearch.runner.execute import execute
from clarisearch.schema.config import RunConfig
from clarisearch.schema.cts import CtsInstance
from clarisearch.schema.loader import load_records

from .conftest import ZH

ROLES = {r: "rules" for r in ("agent", "clarifier", "user", "rewriter", "judge", "summarizer", "extractor")}


def row(key: str, questions: list[str], answers: list[str], rewrite: str, iid: str = "a") -> dict:
    return {"key": key, "instance_id": iid, "system": "clarify", "k": len(questions), "mode": "batch", "status": "ok",
            "questions": questions, "answers": answers, "rewrite": rewrite}


def test_ua_agreement_and_rewrite_similarity() -> None:
    a = [row("x", ["Which year?", "Which country?"], ["1921", "unknown"], "nobel physics 1921"),
         row("y", ["Which year?"], ["unknown"], "nobel chemistry")]
    b = [row("x", ["Which year?", "Which region?"], ["1921", "Europe"], "nobel physics 1921"),
         row("y", ["Which year?"], ["1911"], "nobel chemistry 1911")]
    agree = ua_agreement(a, b)
    assert agree["pairs"] == 2 and agree["ua_agreement"] == 0.5  # the differing second question is not paired
    sim = rewrite_similarity(a, b)
    assert sim["pairs"] == 2 and 0.8 < sim["rewrite_similarity"] < 1.0


def test_unknown_preservation_and_unsupported_concretization() -> None:
    blurred = {"a": "Who won the Nobel Prize in Physics?", "b": "Population of Springfield?"}
    good = row("g", ["Which year?"], ["unknown"], "Who won the Nobel Prize in Physics?", "a")
    bad_year = row("h", ["Which year?"], ["unknown"], "Who won the 1921 Nobel Prize in Physics?", "a")
    bad_place = row("i", ["Which state do you mean?", "Which year?"], ["unknown", "2020"],
                    "Population of Springfield, Illinois in 2020?", "b")
    stats = rewrite_protocol([good, bad_year, bad_place], blurred)
    assert stats["unknown_answers"] == 3 and stats["unknown_preservation"] == 1 / 3
    assert stats["unsupported_concretization_rate"] == 1 / 3  # 2020 was answered, 1921 was not


def test_judge_stability_ordering() -> None:
    def res(system: str, score: float) -> dict:
        return {"system": system, "k": 1, "mode": "batch", "status": "ok", "restore_score_100": score}

    stable = judge_stability([("j1", [res("orig", 10), res("clarify", 20)]), ("j2", [res("orig", 30), res("clarify", 35)])])
    flipped = judge_stability([("j1", [res("orig", 10), res("clarify", 20)]), ("j2", [res("orig", 30), res("clarify", 25)])])
    assert stable["stable"] is True and flipped["stable"] is False
    assert stable["judges"]["j1"]["ordering"] == ["k1", "orig"]


async def test_build_gold_writes_valid_traceable_nuggets(tmp_path: Path) -> None:
    source = tmp_path / "nogold.jsonl"
    rows = [json.loads(line) for line in (ZH / "cts.jsonl").read_text(encoding="utf-8").splitlines()[:3]]
    source.write_text("\n".join(json.dumps({k: v for k, v in r.items() if k != "gold"}, ensure_ascii=False) for r in rows))
    config = RunConfig(protocol="gold", data=str(source), roles=ROLES, search=f"corpus:{ZH / 'corpus.jsonl'}")
    out = tmp_path / "gold.jsonl"
    result = await build_gold(config, source, out)
    assert result["written"] == 3 and not result["extraction_failures"]
    built = load_records(out, CtsInstance)
    corpus_ids = {json.loads(line)["id"] for line in (ZH / "corpus.jsonl").read_text(encoding="utf-8").splitlines()}
    for inst in built:
        assert inst.gold and inst.gold.nuggets and inst.gold.must_cover == [inst.fused_query]
        assert all(set(n.evidence_ids) <= corpus_ids and n.evidence_ids for n in inst.gold.nuggets)
        assert {i for n in inst.gold.nuggets for i in n.evidence_ids} == {e.id for e in inst.gold.evidence}
    assert len(out.with_suffix(".traces.jsonl").read_text().splitlines()) == 3
    again = await build_gold(config, source, out)  # resumable: nothing redone
    assert again["skipped_existing"] == 3 and again["written"] == 3


def test_rejudge_changes_only_the_judge(tmp_path: Path) -> None:
    run = tmp_path / "run"
    config = RunConfig(protocol="cts", data=str(ZH / "cts.jsonl"), search=f"corpus:{ZH / 'corpus.jsonl'}", ks=[1],
                       modes=["batch"], roles=ROLES, limit=3)
    execute(config, run, progress=False)

    def all_full(messages: list[Message]) -> str:
        ids = re.findall(r"- id=(\S+) \(weight", messages[-1]["content"])
        return json.dumps({"labels": [{"id": i, "label": "full"} for i in ids]})

    summary = asyncio.run(rejudge_run(run, tmp_path / "rj", "openai/strict-judge", overrides={"judge": ScriptedLLM(all_full)}))
    assert summary["systems"]["k1"]["score"]["mean"] == 100.0 and summary["systems"]["orig"]["score"]["n"] == 3
    before = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    after = [json.loads(line) for line in (tmp_path / "rj" / "results.jsonl").read_text().splitlines()]
    assert [r["agent"]["answer"] for r in before] == [r["agent"]["answer"] for r in after]
    assert json.loads((tmp_path / "rj" / "config.json").read_text())["roles"]["judge"] == "openai/strict-judge"
