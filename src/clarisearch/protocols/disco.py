"""Protocol A, DiscoBench: an interactive, checkpointed dialogue between agent and user simulator.

The simulator sees only the current checkpoint; a correct answer advances to the next one; the
episode ends when the last checkpoint is answered or a limit is hit, always with a typed reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from clarisearch.agents.disco_agent import AgentTurn, DiscoAgent
from clarisearch.judges.equivalence import EquivalenceJudge
from clarisearch.judges.matching import contains_phrase
from clarisearch.llm.base import LLMError
from clarisearch.metrics.disco import profile_of
from clarisearch.runner.batch import EpisodeSpec
from clarisearch.runner.context import current_episode
from clarisearch.schema.disco import DiscoSample
from clarisearch.schema.results import CheckpointOutcome, DiscoEpisode, DiscoTurn
from clarisearch.schema.views import AgentView, CheckpointView, EquivalenceView
from clarisearch.users.disco_simulator import OUTCOMES_FOR_ACTION, UserSimulator, canned_reply


class Termination(StrEnum):
    TASK_COMPLETE = "task_complete"
    MAX_TURNS = "max_turns"
    MAX_TOKENS = "max_tokens"


class SimulatorFailure(LLMError):
    kind = "simulator_parse_failure"


@dataclass(frozen=True)
class DiscoLimits:
    max_turns: int = 12
    max_tokens: int | None = None  # the search budget is the ToolBox's (ToolLimits.max_searches)


@dataclass
class DiscoParticipants:
    new_agent: Callable[[], DiscoAgent]
    simulator: UserSimulator
    judge: EquivalenceJudge
    limits: DiscoLimits


def episode_key(sample_id: str, setting: str, ablation: str) -> str:
    return f"disco|{sample_id}|{setting}|{ablation}"


def _guard_reply(outcome: str, reply: str, view: CheckpointView) -> str:
    """A simulator reply must never name the answer unless it confirms a correct one."""
    if outcome != "correct_answer" and any(contains_phrase(reply, g) for g in view.checkpoint.gold_forms()):
        current_episode().emit("simulator_leak_guard", role="user", checkpoint=view.checkpoint.id)
        return canned_reply(outcome, view)
    return reply


async def judge_final_answer(judge: EquivalenceJudge, sample: DiscoSample, answer: str, result: DiscoEpisode) -> None:
    """E2E verdict on the agent's final answer; no answer at all is wrong without asking the judge."""
    result.final_response = answer
    if not answer.strip():
        result.e2e_correct, result.judge_raw = False, "no answer given"
        return
    out = await judge.judge(EquivalenceView(sample.question, sample.final_answer, tuple(sample.final_answer_aliases),
                                            answer, sample.language))
    result.e2e_correct, result.judge_parse_ok, result.judge_raw = out.equivalent, out.parse_ok, out.raw


async def run_disco_episode(sample: DiscoSample, parts: DiscoParticipants, key: str, setting: str,
                            ablation: str) -> DiscoEpisode:
    ctx = current_episode()
    cps = sample.checkpoints
    outcomes = [CheckpointOutcome(id=cp.id, type=cp.type, ambiguity_type=cp.ambiguity_type) for cp in cps]
    outcomes[0].reached = True
    result = DiscoEpisode(key=key, instance_id=sample.id, setting=setting, ablation=ablation,
                          difficulty=sample.difficulty, domain=sample.domain, language=sample.language,
                          n_checkpoints=len(cps))
    agent = parts.new_agent()
    await agent.start(AgentView(sample.question, sample.language))
    index, message, last_answer = 0, None, ""
    termination = Termination.MAX_TURNS
    for turn_no in range(parts.limits.max_turns):
        if parts.limits.max_tokens and ctx.total_usage().total >= parts.limits.max_tokens:
            termination = Termination.MAX_TOKENS
            break
        turn: AgentTurn = await agent.turn(message)
        cp, state = cps[index], outcomes[index]
        view = CheckpointView(cp, is_last=index == len(cps) - 1, asked_before=state.asks > 0, language=sample.language)
        verdict = await parts.simulator.respond(view, turn.action, turn.text)
        if not verdict.parse_ok or verdict.outcome not in OUTCOMES_FOR_ACTION[turn.action]:
            raise SimulatorFailure(f"user simulator gave no valid verdict for turn {turn_no + 1}: {verdict.raw[:500]}")
        reply = _guard_reply(verdict.outcome, verdict.reply, view)
        result.turns.append(DiscoTurn(index=turn_no, checkpoint_index=index, checkpoint_id=cp.id, action=turn.action,
                                      text=turn.text, steps=turn.steps, searches=turn.searches, visits=turn.visits,
                                      outcome=verdict.outcome, user_reply=reply, simulator_raw=verdict.raw))
        ctx.emit("user_turn", role="user", checkpoint=cp.id, action=turn.action, outcome=verdict.outcome)
        result.searches += turn.searches
        result.visits += turn.visits
        if state.first_decision is None:
            state.searches_before_decision += turn.searches
        if turn.action == "ask":
            result.asks += 1
            state.asks += 1
            state.right_asks += verdict.outcome == "ambiguity_detected"
            state.first_decision = state.first_decision or "ask"
        elif turn.action == "answer":
            last_answer = turn.text
            state.first_decision = state.first_decision or "answer"
            if verdict.outcome == "correct_answer":
                state.advanced = True
                index += 1
                if index == len(cps):
                    termination = Termination.TASK_COMPLETE
                    break
                outcomes[index].reached = True
        message = reply
    for state in outcomes:
        state.profile = profile_of(state) if state.reached and state.type == "ambi" else None
    result.checkpoints = outcomes
    result.termination = termination.value
    await judge_final_answer(parts.judge, sample, last_answer, result)
    ctx.emit("judge_verdict", role="judge", e2e_correct=result.e2e_correct, parse_ok=result.judge_parse_ok)
    return result


def error_episode(spec: EpisodeSpec, kind: str, message: str) -> DiscoEpisode:
    sample, setting, ablation = spec.payload
    return DiscoEpisode(key=spec.key, instance_id=sample.id, setting=setting, ablation=ablation, status="error",
                        error_kind=kind, error=message, difficulty=sample.difficulty, domain=sample.domain,
                        language=sample.language, n_checkpoints=len(sample.checkpoints))
