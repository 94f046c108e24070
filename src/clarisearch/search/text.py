"""Language-aware tokenization shared by the index, snippets and the rule-based roles.

Latin text: lowercased words, light suffix stemming, stopwords dropped. CJK text: jieba
segmentation (search mode: words and their sub-words), single-character function words dropped. Deterministic.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

import jieba

jieba.setLogLevel(logging.WARNING)

TOKENIZER_VERSION = "1"

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = rf"(?:(?![{_CJK}])[^\W_])+"
_SEGMENTS = re.compile(rf"([{_CJK}]+)|({_WORD}(?:['’]{_WORD})?)", re.UNICODE)
_HAS_CJK = re.compile(rf"[{_CJK}]")

EN_STOPWORDS = frozenset(
    ["a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or", "but", "is", "are", "was", "were", "be", "been", "being", "this", "that", "these", "those", "it", "its", "as", "into", "about", "which", "who", "whom", "whose", "what", "when", "where", "why", "how", "did", "do", "does", "done", "has", "have", "had", "not", "no", "than", "then", "there", "their", "they", "them", "he", "she", "his", "her", "him", "i", "you", "your", "we", "our", "us", "me", "my", "any", "all", "some", "can", "could", "would", "should", "will", "shall", "may", "might", "must", "if", "so", "such", "also", "very", "more", "most", "many", "much", "one", "ones", "s", "other", "just", "only", "over", "under", "after", "before", "between", "during", "per", "via"]
)
ZH_STOPWORDS = frozenset(["的", "了", "是", "在", "和", "与", "及", "或", "也", "都", "就", "而", "被", "把", "对", "于", "为", "以", "其", "之", "这", "那", "个", "中", "有", "上", "下", "吗", "呢", "吧", "啊", "哪", "什么", "哪个", "哪些", "多少", "如何", "怎么", "是否"])


def has_cjk(text: str) -> bool:
    return bool(_HAS_CJK.search(text))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light, predictable English stemmer (plural and common verb endings)."""
    if len(word) <= 3 or not word.isascii() or word.isdigit():
        return word
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("edly", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word
            if suffix == "es" and not word.endswith(("ches", "shes", "xes", "zes", "oes")):
                return word[:-1]
            return word[: len(word) - len(suffix)] + repl
    return word


def tokenize(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Search tokens of `text` in order (duplicates kept)."""
    tokens: list[str] = []
    for cjk, word in _SEGMENTS.findall(text.lower()):
        if cjk:
            for piece in jieba.lcut_for_search(cjk):
                piece = piece.strip()
                if piece and (keep_stopwords or piece not in ZH_STOPWORDS):
                    tokens.append(piece)
        elif word:
            word = word.replace("’", "'").split("'")[0]
            if keep_stopwords or word not in EN_STOPWORDS:
                tokens.append(stem(word))
    return tokens


def content_terms(text: str) -> set[str]:
    """The set of content tokens, for overlap-based matching."""
    return set(tokenize(text))


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|(?<=[。！？；])")


def split_sentences(text: str) -> list[str]:
    """Sentences of a page (English and Chinese punctuation)."""
    parts: list[str] = []
    for block in re.split(r"\n\s*\n|\n", text):
        parts.extend(s.strip() for s in _SENTENCE_END.split(block))
    return [p for p in parts if p]


def normalize_answer(text: str) -> str:
    """Lowercase, strip punctuation, articles and extra spaces (SQuAD-style), CJK kept."""
    text = text.lower()
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    text = re.sub(rf"[^\w{_CJK}]+", " ", text)
    return " ".join(text.split())
