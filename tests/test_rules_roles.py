from __future__ import annotations

import pytest

from clarisearch.agents.clarifier import RulesClarifier, parse_question_list
from clarisearch.agents.rewriter import RulesRewriter, clean_rewrite
from clarisearch.judges.coverage import RulesCoverageJudge, parse_coverage
from clarisearch.judges.equivalence import RulesEquivalenceJudge, parse_equivalence
from clarisearch.metrics.question_types import question_types
from clarisearch.schema.cts import Nugget
from clarisearch.schema.views import AnswererView, ClarifierView, CoverageView, EquivalenceView, RewriterView
from clarisearch.users.answerer import RulesUserAnswerer, normalize_ua_answer


async def ua(intent: str, question: str) -> str:
    return (await RulesUserAnswerer().answer(AnswererView(intent, question)))[0]


async def test_user_answerer_gives_stated_attributes_and_unknown_otherwise() -> None:
    intent = "Who won the 1921 Nobel Prize in Physics, and for what?"
    assert await ua(intent, "Which year are you asking about?") == "1921"
    assert await ua(intent, "Which country or region do you mean?") == "unknown"
    assert await ua("What is the largest country by area?", "By which measure do you mean largest?") == "by area"
    assert await ua("What is the population of Springfield, Illinois?", "Which city or state?") == "Springfield, Illinois"
    assert await ua("2008年北京奥运会中国获得多少枚金牌？", "您问的是哪一年？") == "2008年"
    assert (await ua("中国最大的城市按常住人口计算是哪座？", "按什么标准衡量？")).startswith("按常住人口")
    assert await ua("中国最大的城市是哪座？", "您问的是哪一年？") == "unknown"


def test_ua_output_normalization() -> None:
    assert normalize_ua_answer("Unknown.") == "unknown"
    assert normalize_ua_answer('"1921"') == "1921"
    assert normalize_ua_answer("Answer: Europe\nbecause the intent says so") == "Europe"
    assert normalize_ua_answer("未知") == "unknown"


def test_question_types() -> None:
    assert question_types("Which year do you mean?") == ["time"]
    assert question_types("Which city are you in?") == ["region"]
    assert "definition" in question_types("By which measure do you mean largest?")
    assert question_types("您问的是哪个国家或地区？") == ["region"]
    assert question_types("Anything else?") == ["other"]


async def test_rules_clarifier_asks_k_questions_region_last() -> None:
    out = await RulesClarifier().ask(ClarifierView("What is the largest lake?"), 3)
    assert len(out.questions) == 3 and out.parse_ok
    assert question_types(out.questions[0])[0] == "definition"
    assert "region" not in question_types(out.questions[1])
    follow = await RulesClarifier().ask_next(ClarifierView("What is the largest lake?"), [(out.questions[0], "unknown")])
    assert "definition" not in question_types(follow.questions[0])


def test_parse_question_list_is_strict() -> None:
    assert parse_question_list(["a", "b", "c"], 2) == ["a", "b"]
    assert parse_question_list({"questions": ["a"]}, 1) == ["a"]
    for bad in (["a"], [1, 2], "a", ["", "b"]):
        with pytest.raises(ValueError):
            parse_question_list(bad, 2)


async def test_rules_rewriter_keeps_unknown_aspects_open() -> None:
    view = RewriterView("Who won the Nobel Prize in Physics?", (("Which year?", "1921"), ("Which country?", "unknown")))
    query, _ = await RulesRewriter().rewrite(view)
    assert "1921" in query and "unknown" not in query.lower()
    unchanged, _ = await RulesRewriter().rewrite(RewriterView("q?", (("Which?", "unknown"),)))
    assert unchanged == "q?"
    assert clean_rewrite('Rewritten query: "best AI universities in Europe"', "x") == "best AI universities in Europe"


async def test_rules_coverage_judge_full_partial_none() -> None:
    nuggets = (Nugget(id="n1", text="Albert Einstein won the 1921 Nobel Prize in Physics", weight=3),
               Nugget(id="n2", text="awarded for his discovery of the law of the photoelectric effect", weight=2),
               Nugget(id="n3", text="The prize was presented in 1922", weight=1))
    answer = ("Albert Einstein received the Nobel Prize in Physics for 1921. It recognised his discovery of "
              "the photoelectric effect.")
    out = await RulesCoverageJudge().judge(CoverageView("q", answer, nuggets))
    labels = {v.nugget_id: v.label for v in out.verdicts}
    assert labels == {"n1": "full", "n2": "partial", "n3": "none"}
    wrong_year = await RulesCoverageJudge().judge(CoverageView("q", "Albert Einstein won the 1922 Nobel Prize in Physics", nuggets[:1]))
    assert wrong_year.verdicts[0].label != "full"


def test_parse_coverage_requires_every_nugget() -> None:
    view = CoverageView("q", "a", (Nugget(id="n1", text="t", weight=1), Nugget(id="n2", text="u", weight=2)))
    verdicts = parse_coverage({"labels": [{"id": "n1", "label": "FULL"}, {"id": "n2", "label": "none"}]}, view)
    assert [v.label for v in verdicts] == ["full", "none"]
    with pytest.raises(ValueError):
        parse_coverage({"labels": [{"id": "n1", "label": "full"}]}, view)
    with pytest.raises(ValueError):
        parse_coverage({"labels": [{"id": "n1", "label": "mostly"}, {"id": "n2", "label": "none"}]}, view)


async def test_equivalence_rules_and_parser() -> None:
    judge = RulesEquivalenceJudge()
    yes = await judge.judge(EquivalenceView("q", "John Williams", ("J. Williams",), "The composer was John Williams."))
    no = await judge.judge(EquivalenceView("q", "John Williams", (), "Hans Zimmer"))
    num = await judge.judge(EquivalenceView("q", "1,991 m", (), "It spans 1991 metres"))
    assert yes.equivalent and not no.equivalent and num.equivalent
    assert parse_equivalence({"equivalent": "true"}) is True
    with pytest.raises(ValueError):
        parse_equivalence({"verdict": True})


def test_llm_output_variants_are_normalized() -> None:
    assert normalize_ua_answer("The intent does not specify a region, so: unknown") == "unknown"
    assert normalize_ua_answer("Unknown") == "unknown"
    view = CoverageView("q", "a", (Nugget(id="n1", text="t", weight=1), Nugget(id="n2", text="u", weight=2)))
    positional = parse_coverage({"labels": [{"id": 1, "label": "full"}, {"id": 2, "label": "partial"}]}, view)
    assert [(v.nugget_id, v.label) for v in positional] == [("n1", "full"), ("n2", "partial")]
