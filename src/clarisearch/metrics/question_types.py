"""Clarification-question types (region, time, entity, scope, definition, other), English and Chinese.

A question may carry several types ("which city and year?"); "region-only" means region and
nothing else, the low-yield class the CTS paper diagnoses.
"""

from __future__ import annotations

import re

QUESTION_TYPES = ("region", "time", "entity", "scope", "definition", "other")

_PATTERNS: dict[str, list[str]] = {
    "region": [
        r"\b(where|region|regions|country|countries|city|cities|location|located|place|province|state|area|"
        r"continent|local|nation|national|geographic|geography|market)\b",
        r"地区|地域|国家|城市|哪里|什么地方|哪个省|省份|地点|区域|所在地|哪国|境内|当地",
    ],
    "time": [
        r"\b(when|year|years|date|dates|time|period|era|decade|century|month|season|edition|recent|latest|current|"
        r"as of|timeframe|time frame|historical|version|generation)\b",
        r"哪一年|年份|时间|时期|何时|什么时候|年代|日期|哪年|最新|近期|版本|哪一届|第几届|季度|月份",
    ],
    "entity": [
        r"\b(which one|who|whom|which person|which company|which organization|which organisation|which team|"
        r"name of|specific (person|company|product|team|organization|brand|model)|which (specific|particular)|"
        r"brand|product|model|organization|organisation|company|person|team|institution|university)\b",
        r"哪个人|哪位|谁|哪家|哪个公司|哪个品牌|哪个产品|哪款|哪支|具体是指|哪个机构|哪所|名称",
    ],
    "scope": [
        r"\b(scope|aspect|aspects|include|including|only|all|overall|total|subset|category|categories|type|types|"
        r"kind|kinds|level|segment|focus|part|detail|details|breakdown|range|specifically)\b",
        r"范围|方面|哪些方面|包括|仅|全部|总体|类别|类型|种类|层面|哪一类|哪方面|细分",
    ],
    "definition": [
        r"\b(define|definition|mean by|meaning|measure|measured|measurement|metric|criterion|criteria|by what|"
        r"in terms of|ranked|ranking|standard|basis|nominal|per capita|by (population|area|revenue|volume|value))\b",
        r"定义|指的是|含义|意思|标准|口径|衡量|按照|按什么|依据|指标|排名依据|以什么",
    ],
}
_COMPILED = {kind: [re.compile(p, re.IGNORECASE) for p in pats] for kind, pats in _PATTERNS.items()}


def question_types(question: str) -> list[str]:
    """Every type the question targets, in QUESTION_TYPES order; ["other"] when none matches."""
    found = [kind for kind, patterns in _COMPILED.items() if any(p.search(question) for p in patterns)]
    return found or ["other"]


def is_region_only(types: list[str]) -> bool:
    return types == ["region"]
