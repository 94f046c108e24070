"""DiscoBench user simulator (the multi-turn responder): sees ONLY the current checkpoint.

It classifies the agent's turn with the decision matrix and replies: the clue (indirectly) on a
correct ask, a confirmation on a correct answer, a non-informative reply otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from clarisearch import prompts
from clarisearch.judges.matching import answer_matches, contains_phrase, term_recall
from clarisearch.llm.base import LLM, DecodingParams
from clarisearch.llm.json_output import complete_json
from clarisearch.schema.views import CheckpointView
from clarisearch.search.text import has_cjk

OUTCOMES_FOR_ACTION = {
    "ask": ("ambiguity_detected", "wrong_ambiguity_detected"),
    "answer": ("correct_answer", "missed_ambiguity", "wrong_answer"),
    "search_only": ("search_only",),
}

_REPLIES = {
    "en": {
        "ambiguity_detected": "I can't name it for you, but here is what I remember: {clue}",
        "wrong_ambiguity_detected": "I'm not sure that matters for what I'm asking. Please go ahead.",
        "correct_answer": "Yes, that's right. Please continue with my question.",
        "task_complete": "Yes, that's right. That answers my question, thank you.",
        "missed_ambiguity": "Hmm, that's not the one I meant.",
        "wrong_answer": "That doesn't seem right.",
        "search_only": "Please either ask me a question or give me your answer.",
    },
    "zh": {
        "ambiguity_detected": "我说不出具体名字，但我记得：{clue}",
        "wrong_ambiguity_detected": "这个我不太确定，跟我想问的关系不大，请继续。",
        "correct_answer": "对，没错。请继续回答我的问题。",
        "task_complete": "对，没错。这就回答了我的问题，谢谢。",
        "missed_ambiguity": "嗯，这不是我想问的那个。",
        "wrong_answer": "这个好像不对。",
        "search_only": "请直接问我问题，或者给出你的答案。",
    },
}


def canned_reply(outcome: str, view: CheckpointView) -> str:
    lang = "zh" if view.language.startswith("zh") or has_cjk(view.checkpoint.sub_question) else "en"
    key = "task_complete" if outcome == "correct_answer" and view.is_last else outcome
    return _REPLIES[lang][key].format(clue=view.checkpoint.clue_if_asked)


@dataclass
class SimulatorVerdict:
    outcome: str
    reply: str
    parse_ok: bool = True
    raw: str = ""


class UserSimulator(Protocol):
    async def respond(self, view: CheckpointView, action: str, text: str) -> SimulatorVerdict: ...


class LLMUserSimulator:
    def __init__(self, llm: LLM, max_reasks: int = 2):
        self.llm = llm
        self.max_reasks = max_reasks

    async def respond(self, view: CheckpointView, action: str, text: str) -> SimulatorVerdict:
        cp = view.checkpoint
        prompt = prompts.render(
            "disco_responder", sub_question=cp.sub_question, cp_type="ambiguous" if cp.is_ambiguous else "unambiguous",
            answer=cp.answer, aliases=", ".join(cp.answer_aliases) or "(none)", ambiguity=cp.ambiguity or "(none)",
            candidates=", ".join(cp.candidates) or "(none)", clue=cp.clue_if_asked or "(none)",
            is_last="yes" if view.is_last else "no", asked_before="yes" if view.asked_before else "no",
            action=action.upper(), text=text or "(nothing)")
        allowed = OUTCOMES_FOR_ACTION[action]

        def validate(value: Any) -> tuple[str, str]:
            if not isinstance(value, dict) or value.get("outcome") not in allowed:
                raise ValueError(f'expected {{"outcome": one of {list(allowed)}, "reply": "..."}}')
            return str(value["outcome"]), str(value.get("reply", ""))

        outcome = await complete_json(self.llm, [{"role": "user", "content": prompt}], validate,
                                      DecodingParams(temperature=0.0), self.max_reasks)
        raw = "\n---\n".join(outcome.raw_outputs)
        if not outcome.parse_ok:
            return SimulatorVerdict("", "", False, raw)
        label, reply = outcome.value
        return SimulatorVerdict(label, reply or canned_reply(label, view), True, raw)


class RulesUserSimulator:
    """Rule-based simulator: an ask targets the ambiguity if it names a confusable candidate or shares
    enough terms with the ambiguity description; an answer is right if it states the gold and no rival."""

    def __init__(self, min_overlap: float = 0.34):
        self.min_overlap = min_overlap

    def targets_ambiguity(self, view: CheckpointView, ask: str) -> bool:
        cp = view.checkpoint
        if not cp.is_ambiguous:
            return False
        if any(contains_phrase(ask, c) for c in cp.candidates):
            return True
        return term_recall(cp.ambiguity, ask) >= self.min_overlap if cp.ambiguity else False

    async def respond(self, view: CheckpointView, action: str, text: str) -> SimulatorVerdict:
        cp = view.checkpoint
        if action == "ask":
            outcome = "ambiguity_detected" if self.targets_ambiguity(view, text) else "wrong_ambiguity_detected"
        elif action == "answer":
            rivals = cp.candidates if cp.is_ambiguous else []
            if answer_matches(text, cp.gold_forms(), rivals):
                outcome = "correct_answer"
            else:
                outcome = "missed_ambiguity" if cp.is_ambiguous and not view.asked_before else "wrong_answer"
        else:
            outcome = "search_only"
        return SimulatorVerdict(outcome, canned_reply(outcome, view), True, "rules")
