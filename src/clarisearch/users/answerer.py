"""CTS user answerer (UA): closed-book, answers from the intent only, else exactly `unknown`."""

from __future__ import annotations

import re
from typing import Protocol

import jieba.posseg

from clarisearch import prompts
from clarisearch.llm.base import LLM, DecodingParams
from clarisearch.metrics.question_types import question_types
from clarisearch.schema.views import AnswererView
from clarisearch.search.text import has_cjk
from clarisearch.users.places import find_places

UNKNOWN = "unknown"
_UNKNOWN_FORMS = {"unknown", "未知", "不知道", "不清楚", "unknown.", "n/a", "not specified", "未指定", "未说明"}


def normalize_ua_answer(text: str) -> str:
    """Collapse the model's "don't know" variants to exactly `unknown`; strip quotes and labels."""
    answer = text.strip().strip('"“”\'`').strip()
    answer = re.sub(r"^(answer|回答|答案)\s*[:：]\s*", "", answer, flags=re.IGNORECASE).strip()
    first_line = answer.splitlines()[0].strip() if answer else ""
    if not first_line or first_line.lower().rstrip(".。") in _UNKNOWN_FORMS:
        return UNKNOWN
    # "The intent does not say, so: unknown" -> unknown (a short line that ends in the verdict)
    if re.search(r"\bunknown[.!。]?$", first_line, re.IGNORECASE) and len(first_line.split()) <= 15:
        return UNKNOWN
    return first_line


def is_unknown(answer: str) -> bool:
    return answer.strip().lower() == UNKNOWN


class UserAnswerer(Protocol):
    async def answer(self, view: AnswererView) -> tuple[str, str]:
        """(normalized answer, raw output)."""
        ...


class LLMUserAnswerer:
    def __init__(self, llm: LLM):
        self.llm = llm

    async def answer(self, view: AnswererView) -> tuple[str, str]:
        prompt = prompts.render("user_answerer", intent=view.intent, question=view.question)
        completion = await self.llm.complete([{"role": "user", "content": prompt}], DecodingParams(temperature=0.0))
        return normalize_ua_answer(completion.text), completion.text


_YEAR = re.compile(r"\b(?:(?:in|during|since|from|of|as of)\s+)?((?:1[5-9]\d{2}|20\d{2})s?(?:\s*[-–]\s*(?:1[5-9]\d{2}|20\d{2}))?)\b", re.I)
_ZH_TIME = re.compile(r"(\d{4}年(?:\d{1,2}月)?(?:\d{1,2}日)?|\d{4}[-–至到]\d{4}年?|第[一二三四五六七八九十\d]+届|\d{2}世纪\d{0,2}年代?)")
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_DEFINITION = re.compile(r"\b((?:by|in terms of|measured by|according to|based on)\s+[a-z][\w\s'-]{1,40}?)(?=[,.?;!]|$|\s+(?:and|in|for|as|of|among|during)\b)", re.I)
_ZH_DEFINITION = re.compile(r"((?:按照?|以|根据)[^，。？、\s]{1,10}?(?:计算|计|排名|衡量|来算)?)(?=[，。？的]|$)")
_SCOPE = re.compile(r"\b((?:only|excluding|including|among|for)\s+[\w' -]{2,40}?)(?=[,.?;!]|$)", re.I)
_CAPITALIZED = re.compile(r"((?:[A-Z][\w.'’-]*|of|the|and|de|von|van)(?:\s+(?:[A-Z][\w.'’-]*|of|the|and|de|von|van|\(\w[^)]*\)))*(?:,\s+[A-Z][\w.'-]+)?)")
_QUESTION_WORDS = {"What", "Which", "Who", "When", "Where", "How", "Why", "Is", "Are", "Did", "Does", "Do", "The", "A", "An", "In", "List", "Give", "Name", "Tell"}


def _first(pattern: re.Pattern[str], text: str) -> str | None:
    match = pattern.search(text)
    return match.group(1).strip() if match else None


def _zh_tagged(text: str, tags: tuple[str, ...]) -> str | None:
    words = [w.word for w in jieba.posseg.cut(text) if w.flag in tags and len(w.word) >= 2]
    return "、".join(dict.fromkeys(words)) if words else None


def _english_entity(text: str) -> str | None:
    candidates = []
    for match in _CAPITALIZED.finditer(text):
        phrase = match.group(1).strip(" ,")
        words = phrase.split()
        while words and words[0] in _QUESTION_WORDS:
            words = words[1:]
        while words and words[-1] in {"of", "the", "and", "de", "von", "van"}:
            words = words[:-1]
        if words and not re.fullmatch(_MONTH, words[0]):
            candidates.append(" ".join(words))
    return max(candidates, key=len) if candidates else None


class RulesUserAnswerer:
    """Rule-based UA baseline: extracts the span of the intent that the question's type asks for."""

    def extract(self, intent: str, qtype: str) -> str | None:
        zh = has_cjk(intent)
        if qtype == "time":
            return _first(_ZH_TIME, intent) if zh else _first(_YEAR, intent) or _first(re.compile(rf"({_MONTH}\s+\d{{4}})"), intent)
        if qtype == "definition":
            return _first(_ZH_DEFINITION, intent) if zh else _first(_DEFINITION, intent)
        if qtype == "region":
            if zh:
                return _zh_tagged(intent, ("ns",))
            places = find_places(intent)
            return ", ".join(dict.fromkeys(places)) if places else None
        if qtype == "entity":
            if zh:
                titled = re.findall(r"《[^》]+》", intent)
                return "、".join(titled) if titled else _zh_tagged(intent, ("nr", "nt", "nz"))
            return _english_entity(intent)
        if qtype == "scope":
            return _first(re.compile(r"((?:仅|只|包括|不包括|其中)[^，。？]{1,12})"), intent) if zh else _first(_SCOPE, intent)
        return None

    async def answer(self, view: AnswererView) -> tuple[str, str]:
        types = question_types(view.question)
        order = [t for t in ("definition", "time", "region", "entity", "scope") if t in types]
        for qtype in order:
            span = self.extract(view.intent, qtype)
            if span and span.lower() not in view.question.lower():
                return span, f"rules: type={qtype} span={span!r}"
        return UNKNOWN, f"rules: types={types} no explicit span in intent"
