"""Text matching shared by the rule-based judges and simulator."""

from __future__ import annotations

import re
from collections.abc import Sequence

from clarisearch.search.text import content_terms, has_cjk, normalize_answer

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def numbers_in(text: str) -> set[str]:
    return {n.replace(",", "") for n in _NUMBER.findall(text)}


def contains_phrase(haystack: str, needle: str) -> bool:
    """Whether normalized `needle` occurs in normalized `haystack` on word boundaries (CJK: as a substring)."""
    h, n = normalize_answer(haystack), normalize_answer(needle)
    if not n:
        return False
    if has_cjk(n):
        return n.replace(" ", "") in h.replace(" ", "")
    return re.search(rf"(?<!\w){re.escape(n)}(?!\w)", h) is not None


def mentions_exactly(text: str, name: str) -> bool:
    """`name` occurs in `text` and is not part of a longer capitalized name ("Gamma" in "Gamma Prime")."""
    name = name.strip()
    if has_cjk(name) or not name or not name[0].isupper():
        return contains_phrase(text, name)
    for match in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE):
        after = text[match.end():]
        before = text[: match.start()]
        extends_right = re.match(r"\s+(?:[A-Z][\w'-]*|[IVX]+\b|\d+\b)", after) is not None
        extends_left = re.search(r"[A-Z][\w'-]*\s+$", before) is not None and not re.search(r"[.!?:]\s*[A-Z][\w'-]*\s+$", " " + before)
        if not extends_right and not extends_left:
            return True
    return False


def term_recall(reference: str, candidate: str) -> float:
    ref = content_terms(reference)
    return len(ref & content_terms(candidate)) / len(ref) if ref else 0.0


def answer_matches(candidate: str, gold_forms: Sequence[str], rivals: Sequence[str] = ()) -> bool:
    """Rule-based equivalence: a gold form is stated, and no rival candidate (that is not gold) is."""
    if not candidate.strip():
        return False
    if not any(normalize_answer(g) == normalize_answer(candidate) or mentions_exactly(candidate, g) for g in gold_forms):
        gold_numbers = [numbers_in(g) for g in gold_forms if numbers_in(g)]
        if not gold_numbers or not any(nums <= numbers_in(candidate) and nums for nums in gold_numbers):
            return False
    gold_norm = {normalize_answer(g) for g in gold_forms}
    for rival in rivals:
        if normalize_answer(rival) in gold_norm or any(contains_phrase(g, rival) for g in gold_forms):
            continue
        if contains_phrase(candidate, rival):
            return False
    return True
