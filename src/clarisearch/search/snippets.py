"""Best-matching passage of a page for a query (not the page's first line)."""

from __future__ import annotations

from clarisearch.search.text import has_cjk, split_sentences, tokenize


def best_passage(text: str, query: str, max_chars: int = 320, window: int = 2) -> str:
    """The window of up to `window` consecutive sentences sharing the most query terms; ties: earliest."""
    sentences = split_sentences(text)
    if not sentences:
        return text[:max_chars]
    query_terms = set(tokenize(query))
    best_score, best_start = -1.0, 0
    sentence_terms = [set(tokenize(s)) for s in sentences]
    for start in range(len(sentences)):
        terms: set[str] = set()
        for offset in range(window):
            if start + offset < len(sentences):
                terms |= sentence_terms[start + offset]
        score = len(terms & query_terms) + 0.01 * len(sentence_terms[start] & query_terms)
        if score > best_score:
            best_score, best_start = score, start
    passage = ""
    for sentence in sentences[best_start : best_start + window]:
        if passage and len(passage) + len(sentence) + 1 > max_chars:
            break
        sep = "" if has_cjk(sentence) else " "
        passage = f"{passage}{sep}{sentence}".strip()
    if len(passage) > max_chars:
        passage = passage[: max_chars - 1].rstrip() + "…"
    return passage
