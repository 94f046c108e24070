"""DiscoBench QC probing (seed appendix K): closed-book (no tools, must guess) and open-book
(at most 25 searches, asking forbidden). A sample whose answer either probe finds needs no
clarification and should be reviewed."""

from __future__ import annotations

from typing import Any

from clarisearch import prompts
from clarisearch.judges.equivalence import EquivalenceJudge
from clarisearch.llm.base import LLM, DecodingParams
from clarisearch.llm.json_output import complete_json
from clarisearch.protocols.components import SearchAgent
from clarisearch.protocols.disco import judge_final_answer
from clarisearch.schema.disco import DiscoSample
from clarisearch.schema.results import AgentStep, DiscoEpisode, DiscoTurn
from clarisearch.schema.views import AgentView

OPEN_BOOK_NOTE = ("\nYou cannot ask the user anything: you must find and give the answer yourself, "
                  "using at most 25 searches. If unsure, give your best guess.")


def _answer_field(value: Any) -> str:
    if isinstance(value, dict) and isinstance(value.get("answer"), (str, int, float)):
        return str(value["answer"])
    raise ValueError('expected {"answer": "..."}')


async def closed_book_answer(llm: LLM | None, view: AgentView) -> tuple[str, str]:
    """(answer, raw). With no LLM (rules), there is no parametric knowledge: the answer is empty."""
    if llm is None:
        return "", "rules: no parametric knowledge"
    outcome = await complete_json(llm, [{"role": "user", "content": prompts.render("qc_closed_book", question=view.question)}],
                                  _answer_field, DecodingParams(temperature=0.0))
    return (outcome.value if outcome.parse_ok else ""), "\n---\n".join(outcome.raw_outputs)


async def run_qc_episode(sample: DiscoSample, mode: str, key: str, judge: EquivalenceJudge,
                         closed_llm: LLM | None, open_agent: SearchAgent | None) -> DiscoEpisode:
    view = AgentView(sample.question, sample.language)
    result = DiscoEpisode(key=key, instance_id=sample.id, setting="qc", ablation="none", mode=mode,
                          difficulty=sample.difficulty, domain=sample.domain, language=sample.language,
                          n_checkpoints=len(sample.checkpoints))
    if mode == "closed-book":
        answer, raw = await closed_book_answer(closed_llm, view)
        steps = [AgentStep(output=raw)]
        searches = visits = 0
    else:
        assert open_agent is not None
        trace = await open_agent.run(sample.question)
        answer, steps, searches, visits = trace.answer, trace.steps, trace.searches, trace.visits
    result.turns = [DiscoTurn(index=0, checkpoint_index=0, checkpoint_id=sample.checkpoints[0].id, action="answer",
                              text=answer, steps=steps, searches=searches, visits=visits, outcome="qc")]
    result.searches, result.visits = searches, visits
    result.termination = "answered" if answer else "no_answer"
    await judge_final_answer(judge, sample, answer, result)
    return result
