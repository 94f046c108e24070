from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from clarisearch.agents.disco_agent import AgentTurn
from clarisearch.judges.equivalence import RulesEquivalenceJudge
from clarisearch.llm.base import Message
from clarisearch.llm.scripted import ScriptedLLM
from clarisearch.metrics.disco import summarize_disco
from clarisearch.protocols.disco import DiscoLimits, DiscoParticipants, run_disco_episode
from clarisearch.runner.execute import execute
from clarisearch.schema.config import RunConfig
from clarisearch.schema.disco import Checkpoint, DiscoSample
from clarisearch.schema.loader import load_records
from clarisearch.schema.views import AgentView, CheckpointView
from clarisearch.users.disco_simulator import RulesUserSimulator

from .conftest import ZH

ROLES = {r: "rules" for r in ("agent", "clarifier", "user", "rewriter", "judge", "summarizer", "extractor")}


def ambi(cid: str, answer: str, rival: str, clue: str, kind: str = "entity") -> Checkpoint:
    return Checkpoint(id=cid, sub_question=f"which {cid}?", type="ambi", ambiguity_type=kind, answer=answer,  # type: ignore[arg-type]
                      candidates=[answer, rival], ambiguity=f"two candidates share the name for {cid}", clue_if_asked=clue)


def unambi(cid: str, answer: str) -> Checkpoint:
    return Checkpoint(id=cid, sub_question=f"what {cid}?", type="unambi", answer=answer)


SAMPLE_A = DiscoSample(id="A", domain="film", question="question A", final_answer="Gamma", checkpoints=[
    ambi("a1", "Alpha One", "Alpha Two", "the one from 1975"), unambi("a2", "Beta"),
    ambi("a3", "Gamma", "Gamma Prime", "the later edition", "version")])
SAMPLE_B = DiscoSample(id="B", domain="music", question="question B", final_answer="Zeta", checkpoints=[
    ambi("b1", "Delta", "Delta Junior", "the older one"), ambi("b2", "Epsilon", "Epsilon Minor", "by revenue", "criteria"),
    unambi("b3", "Zeta")])


class ScriptedPolicy:
    """A Disco agent that plays a fixed list of turns (action, text, searches)."""

    def __init__(self, turns: list[tuple[str, str, int]]):
        self.turns = list(turns)
        self.seen: list[str | None] = []

    async def start(self, view: AgentView) -> None:
        self.question = view.question

    async def turn(self, user_message: str | None) -> AgentTurn:
        self.seen.append(user_message)
        action, text, searches = self.turns.pop(0)
        return AgentTurn(action, text, searches=searches)  # type: ignore[arg-type]


POLICY_A = [("ask", "Do you mean Alpha One or Alpha Two?", 0), ("answer", "Alpha One", 0),    # a1: DirectAsk, TP
            ("ask", "Which country?", 0), ("answer", "Beta", 0),                               # a2: FP ask
            ("ask", "Gamma or Gamma Prime?", 1), ("answer", "Gamma Prime", 0)]                 # a3: SearchThenAsk, fails
POLICY_B = [("answer", "Delta", 1),                                                            # b1: DirectGuess, FN
            ("answer", "Epsilon Minor", 3), ("answer", "Epsilon", 0),                          # b2: SearchHeavyGuess, FN
            ("answer", "Zeta", 0)]                                                             # b3: TN, task complete


async def play(sample: DiscoSample, policy: list[tuple[str, str, int]], max_turns: int = 6) -> dict:
    agent = ScriptedPolicy(policy)
    parts = DiscoParticipants(lambda: agent, RulesUserSimulator(), RulesEquivalenceJudge(), DiscoLimits(max_turns=max_turns))
    result = await run_disco_episode(sample, parts, f"k-{sample.id}", "neutral", "none")
    return result.model_dump(mode="json")


async def test_metrics_pinned_on_scripted_episodes() -> None:
    a, b = await play(SAMPLE_A, POLICY_A), await play(SAMPLE_B, POLICY_B)
    assert [t["outcome"] for t in a["turns"]] == ["ambiguity_detected", "correct_answer", "wrong_ambiguity_detected",
                                                  "correct_answer", "ambiguity_detected", "wrong_answer"]
    assert [t["outcome"] for t in b["turns"]] == ["correct_answer", "missed_ambiguity", "correct_answer", "correct_answer"]
    assert a["termination"] == "max_turns" and b["termination"] == "task_complete"
    assert [c["profile"] for c in a["checkpoints"]] == ["DirectAsk", None, "SearchThenAsk"]
    assert [c["profile"] for c in b["checkpoints"]] == ["DirectGuess", "SearchHeavyGuess", None]
    s = summarize_disco([a, b])["groups"]["interactive:neutral:none"]
    assert s["e2e_accuracy"] == 0.5 and s["cp_pass_rate"] == pytest.approx((2 / 3 + 1) / 2)
    det = s["detection"]
    assert (det["tp"], det["fn"], det["fp"], det["tn"]) == (2, 2, 1, 1)
    assert det["accuracy"] == 0.5 and det["precision"] == pytest.approx(2 / 3) and det["recall"] == 0.5
    assert det["f1"] == pytest.approx(4 / 7)
    ce = s["clarification"]
    assert ce["asked_checkpoints"] == 3 and ce["ce_a"] == pytest.approx(2 / 3) and ce["ce_b"] == pytest.approx(1 / 3)
    assert s["cost"]["asks"] == 1.5 and s["cost"]["searches"] == 2.5 and s["cost"]["turns"] == 5.0
    prof = s["profiles"]
    assert {p: (prof[p]["n"], prof[p]["pass_rate"]) for p in ("DirectGuess", "SearchHeavyGuess", "DirectAsk", "SearchThenAsk")} \
        == {"DirectGuess": (1, 1.0), "SearchHeavyGuess": (1, 1.0), "DirectAsk": (1, 1.0), "SearchThenAsk": (1, 0.0)}
    assert s["by_ambiguity_type"]["version"] == {"reached": 1, "pass_rate": 0.0, "detection_recall": 1.0}


async def test_decision_matrix_replies() -> None:
    sim = RulesUserSimulator()
    cp = SAMPLE_A.checkpoints[0]
    view = CheckpointView(cp, is_last=False, asked_before=False)
    asked = await sim.respond(view, "ask", "Is it Alpha Two?")
    assert asked.outcome == "ambiguity_detected" and "1975" in asked.reply and "Alpha One" not in asked.reply
    off_topic = await sim.respond(view, "ask", "What colour is it?")
    assert off_topic.outcome == "wrong_ambiguity_detected" and "1975" not in off_topic.reply
    assert (await sim.respond(view, "answer", "It is Alpha Two")).outcome == "missed_ambiguity"
    hedge = await sim.respond(view, "answer", "Alpha One or Alpha Two")
    assert hedge.outcome == "missed_ambiguity"  # naming the rival too is not an answer
    after_ask = CheckpointView(cp, is_last=False, asked_before=True)
    assert (await sim.respond(after_ask, "answer", "Alpha Two")).outcome == "wrong_answer"
    right = await sim.respond(view, "answer", "The answer is Alpha One.")
    assert right.outcome == "correct_answer" and "continue" in right.reply
    last = CheckpointView(SAMPLE_A.checkpoints[1], is_last=True, asked_before=False)
    assert "answers my question" in (await sim.respond(last, "answer", "Beta")).reply
    assert (await sim.respond(last, "ask", "Alpha One?")).outcome == "wrong_ambiguity_detected"
    assert (await sim.respond(view, "search_only", "")).outcome == "search_only"


def test_hidden_checkpoints_never_reach_simulator_or_agent(tmp_path: Path) -> None:
    samples = load_records(ZH / "disco.jsonl", DiscoSample)

    def simulator(messages: list[Message]) -> str:
        prompt = messages[-1]["content"]
        action = re.search(r"ACTION: (\w+)", prompt).group(1)  # type: ignore[union-attr]
        clue = re.search(r"CLUE YOU MAY RELEASE WHEN ASKED CORRECTLY: (.*)\n", prompt).group(1)  # type: ignore[union-attr]
        if action == "ASK":
            return json.dumps({"outcome": "ambiguity_detected", "reply": f"Hint: {clue}"})
        return json.dumps({"outcome": "correct_answer", "reply": "Right."})

    user = ScriptedLLM(simulator)
    agent = ScriptedLLM(["<think>unsure</think><ask>Which one do you mean?</ask>", "<answer>my guess</answer>"] * 50)
    config = RunConfig(protocol="disco", data=str(ZH / "disco.jsonl"), search=f"corpus:{ZH / 'corpus.jsonl'}",
                       roles=ROLES, setting="guided", concurrency=1)
    summary = execute(config, tmp_path / "run", overrides={"user": user, "agent": agent}, progress=False)
    assert summary["groups"]["interactive:guided:none"]["cp_pass_rate"] == 1.0
    sim_prompts = [call[-1]["content"] for call in user.calls]
    agent_prompts = ["\n".join(m["content"] for m in call) for call in agent.calls]
    position = 0
    for sample in samples:
        cps = sample.checkpoints
        turns = 2 * len(cps)  # ask + answer per checkpoint
        for t in range(turns):
            current = t // 2
            prompt = sim_prompts[position + t]
            assert cps[current].sub_question in prompt
            for later in cps[current + 1:]:
                assert later.sub_question not in prompt and (not later.clue_if_asked or later.clue_if_asked not in prompt)
            if current < len(cps) - 1:
                assert sample.final_answer not in prompt
            seen_by_agent = agent_prompts[position + t]
            assert all(cp.sub_question not in seen_by_agent for cp in cps)
            assert sample.final_answer not in seen_by_agent
            for later in cps[current + 1:]:
                assert not later.clue_if_asked or later.clue_if_asked not in seen_by_agent
        position += turns


def test_cli_demo_disco_run_and_report(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from clarisearch.cli.main import app

    runner = CliRunner()
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", "disco", "--data", "demo", "--limit", "3", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    group = summary["groups"]["interactive:neutral:none"]
    assert group["n"] == 3 and group["cp_pass_rate"] is not None
    report = runner.invoke(app, ["report", str(out)])
    assert report.exit_code == 0 and "DiscoBench" in report.output
    assert f"{100 * group['cp_pass_rate']:.1f}" in report.output


class OraclePolicy:
    """A scripted policy that knows the checkpoint chain (as a test may) and searches the real index.

    `ask=False`: DirectGuess, answers the best-ranked candidate for the sub-question.
    `ask=True`: SearchThenAsk, asks which candidate is meant, then searches again with the clue.
    """

    def __init__(self, sample: DiscoSample, search: object, ask: bool):
        self.sample, self.search, self.ask = sample, search, ask
        self.index, self.clue, self.asked = 0, "", False

    async def start(self, view: AgentView) -> None:
        return None

    def best_candidate(self, query: str, candidates: list[str]) -> str:
        for hit in self.search.search_one(query, 20):  # type: ignore[attr-defined]
            if hit.title in candidates:
                return hit.title
        return candidates[-1]

    async def turn(self, user_message: str | None) -> AgentTurn:
        if user_message and user_message.startswith("Yes, that's right"):
            self.index, self.clue, self.asked = self.index + 1, "", False
        elif user_message and self.asked and not self.clue:
            self.clue = user_message
        cp = self.sample.checkpoints[self.index]
        if not cp.is_ambiguous:
            return AgentTurn("answer", cp.answer, searches=1)
        if self.ask and not self.asked:
            self.asked = True
            return AgentTurn("ask", "Do you mean " + " or ".join(cp.candidates) + "?", searches=1)
        return AgentTurn("answer", self.best_candidate(f"{cp.sub_question} {self.clue}", cp.candidates), searches=1)


async def test_search_then_ask_beats_direct_guess_on_demo() -> None:
    from clarisearch.search.factory import open_search

    search = open_search("demo")
    samples = load_records(Path(__file__).parents[1] / "src/clarisearch/data/demo/disco.jsonl", DiscoSample)
    passed = {}
    for ask in (False, True):
        total = 0
        for sample in samples:
            policy = OraclePolicy(sample, search, ask)
            parts = DiscoParticipants(lambda p=policy: p, RulesUserSimulator(), RulesEquivalenceJudge(),  # type: ignore[misc]
                                      DiscoLimits(max_turns=2 * len(sample.checkpoints)))
            result = await run_disco_episode(sample, parts, sample.id, "neutral", "none")
            total += sum(c.advanced for c in result.checkpoints)
        passed[ask] = total
    assert passed[True] > passed[False] + 5, passed


def test_qc_probes_closed_and_open_book(tmp_path: Path) -> None:
    samples = load_records(ZH / "disco.jsonl", DiscoSample)
    answers = iter([json.dumps({"answer": s.final_answer if i == 0 else "不知道"}) for i, s in enumerate(samples)])
    closed = ScriptedLLM(lambda messages: next(answers))
    base = {"protocol": "qc", "data": str(ZH / "disco.jsonl"), "search": f"corpus:{ZH / 'corpus.jsonl'}",
            "roles": ROLES, "concurrency": 1}
    summary = execute(RunConfig(**base, qc_mode="closed-book"), tmp_path / "closed", overrides={"agent": closed},
                      progress=False)
    group = summary["groups"]["closed-book:qc:none"]
    assert group["n"] == len(samples) and group["e2e_accuracy"] == pytest.approx(1 / len(samples))
    assert all("no tools" in call[0]["content"] for call in closed.calls)
    opened = execute(RunConfig(**base, qc_mode="open-book"), tmp_path / "open", progress=False)
    rows = [json.loads(line) for line in (tmp_path / "open" / "results.jsonl").read_text().splitlines()]
    assert all(r["searches"] <= 25 and r["asks"] == 0 for r in rows)
    assert opened["groups"]["open-book:qc:none"]["n"] == len(samples)


def test_checkpoint_type_aliases() -> None:
    cp = Checkpoint.model_validate({"id": "c", "sub_question": "s", "type": "Ambiguous", "ambiguity_type": "Factual Inaccuracy",
                                    "answer": "a", "clue_if_asked": "c"})
    assert cp.type == "ambi" and cp.ambiguity_type == "factual_inaccuracy"
