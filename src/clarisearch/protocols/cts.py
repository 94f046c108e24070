"""Protocol B, Clarify-Then-Search: clarify -> answer (UA) -> rewrite -> deep search -> coverage judge.

Per instance: `orig` (agent on the blurred query), optional `gold` (agent on the fused query),
and for each budget k the full pipeline, batch (k questions at once, as in the paper) or
adaptive (one question at a time, each seeing the previous answers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from clarisearch.agents.clarifier import AskGate, Clarifier
from clarisearch.agents.rewriter import Rewriter
from clarisearch.judges.coverage import CoverageJudge
from clarisearch.metrics.cts import restore_score_100
from clarisearch.metrics.question_types import question_types
from clarisearch.protocols.components import SearchAgent
from clarisearch.runner.batch import EpisodeSpec
from clarisearch.runner.context import current_episode
from clarisearch.schema.cts import CtsInstance
from clarisearch.schema.results import CtsEpisode
from clarisearch.schema.views import AnswererView, ClarifierView, CoverageView, RewriterView
from clarisearch.users.answerer import UserAnswerer


@dataclass(frozen=True)
class CtsTask:
    instance: CtsInstance
    system: str
    k: int = 0
    mode: str = "batch"


@dataclass
class CtsPipeline:
    clarifier: Clarifier
    answerer: UserAnswerer
    rewriter: Rewriter
    judge: CoverageJudge
    new_agent: Callable[[], SearchAgent]
    clarifier_label: str = "rules"
    gate: AskGate | None = None


def episode_key(instance_id: str, system: str, k: int = 0, mode: str = "batch") -> str:
    return f"cts|{instance_id}|{system}" if system != "clarify" else f"cts|{instance_id}|k{k}|{mode}"


def build_specs(instances: list[CtsInstance], ks: list[int], modes: list[str], include_gold: bool,
                include_orig: bool = True) -> list[EpisodeSpec]:
    specs = []
    for inst in instances:
        if include_orig:
            specs.append(EpisodeSpec(episode_key(inst.id, "orig"), inst.id, CtsTask(inst, "orig")))
        if include_gold:
            specs.append(EpisodeSpec(episode_key(inst.id, "gold"), inst.id, CtsTask(inst, "gold")))
        for mode in modes:
            for k in ks:
                specs.append(EpisodeSpec(episode_key(inst.id, "clarify", k, mode), inst.id, CtsTask(inst, "clarify", k, mode)))
    return specs


async def clarify(pipeline: CtsPipeline, inst: CtsInstance, k: int, mode: str, result: CtsEpisode) -> str:
    """Run the closed-book dialogue and the rewrite; fills `result`; returns the query to search."""
    ctx = current_episode()
    cview = ClarifierView(inst.blurred_query, inst.language)
    if pipeline.gate is not None:
        decision = await pipeline.gate.decide(cview)
        result.asked, result.gate_reason, result.gate_raw = decision.ask, decision.reason, decision.raw
        ctx.emit("ask_gate", role="clarifier", ask=decision.ask, reason=decision.reason, parse_ok=decision.parse_ok)
        if not decision.ask:
            result.rewrite = inst.blurred_query
            return inst.blurred_query
    history: list[tuple[str, str]] = []
    if mode == "adaptive":
        for _ in range(k):
            out = await pipeline.clarifier.ask_next(cview, history)
            result.clarifier_raw += out.raw
            result.clarifier_parse_ok &= out.parse_ok
            if not out.questions:
                break
            answer, raw = await pipeline.answerer.answer(AnswererView(inst.fused_query, out.questions[0], inst.language))
            ctx.emit("user_answer", role="user", question=out.questions[0], answer=answer, raw=raw)
            history.append((out.questions[0], answer))
    else:
        out = await pipeline.clarifier.ask(cview, k)
        result.clarifier_raw, result.clarifier_parse_ok = out.raw, out.parse_ok
        for question in out.questions:
            answer, raw = await pipeline.answerer.answer(AnswererView(inst.fused_query, question, inst.language))
            ctx.emit("user_answer", role="user", question=question, answer=answer, raw=raw)
            history.append((question, answer))
    result.questions = [q for q, _ in history]
    result.answers = [a for _, a in history]
    result.question_types = [question_types(q) for q in result.questions]
    ctx.emit("clarification", role="clarifier", questions=result.questions, answers=result.answers,
             parse_ok=result.clarifier_parse_ok)
    rewrite, raw = await pipeline.rewriter.rewrite(RewriterView(inst.blurred_query, tuple(history), inst.language))
    result.rewrite, result.rewriter_raw = rewrite, raw
    ctx.emit("rewrite", role="rewriter", query=rewrite)
    return rewrite


async def run_cts_episode(pipeline: CtsPipeline, task: CtsTask, key: str) -> CtsEpisode:
    """One pure CTS episode: everything it did is in the returned record."""
    inst = task.instance
    result = CtsEpisode(key=key, instance_id=inst.id, system=task.system, k=task.k, mode=task.mode,  # type: ignore[arg-type]
                        clarifier=pipeline.clarifier_label if task.system == "clarify" else "", language=inst.language)
    if task.system == "orig":
        query = inst.blurred_query
    elif task.system == "gold":
        query = inst.fused_query
    else:
        query = await clarify(pipeline, inst, task.k, task.mode, result)
    result.agent = await pipeline.new_agent().run(query)
    current_episode().emit("agent_answer", role="agent", answer=result.agent.answer, termination=result.agent.termination)
    if inst.gold is not None:
        view = CoverageView(inst.fused_query, result.agent.answer, tuple(inst.gold.nuggets), inst.language)
        out = await pipeline.judge.judge(view)
        result.coverage, result.judge_parse_ok, result.judge_raw = out.verdicts, out.parse_ok, out.raw
        result.judge_model = pipeline.judge.model_id
        result.restore_score_100 = restore_score_100(out.verdicts) if out.parse_ok else None
        current_episode().emit("judge_verdict", role="judge", parse_ok=out.parse_ok, score=result.restore_score_100,
                               labels={v.nugget_id: v.label for v in out.verdicts})
    return result


def error_episode(spec: EpisodeSpec, kind: str, message: str) -> CtsEpisode:
    task: CtsTask = spec.payload
    return CtsEpisode(key=spec.key, instance_id=task.instance.id, system=task.system, k=task.k, mode=task.mode,  # type: ignore[arg-type]
                      status="error", error_kind=kind, error=message, language=task.instance.language)
