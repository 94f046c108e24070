"""Best-matching passage of a page for a query (not the page's first line)."""

from __future__ import annotations

from clarisearch.search.text import has_cjk, split_sentences, tokenize


def best_passage(text: str, query: str, max_chars: int = 320, window: int = 2, title: str = "") -> str:
    """The window of up to `window` consecutive sentences sharing the most query terms; ties: earliest.

    Query terms already in the title count half: the title is shown beside the snippet anyway.
    """
    sentences = split_sentences(text)
    if not sentences:
        return text[:max_chars]
    query_terms = set(tokenize(query))
    title_terms = set(tokenize(title))
    weight = {t: 0.5 if t in title_terms else 1.0 for t in query_terms}
    best_score, best_start = -1.0, 0
    sentence_terms = [set(tokenize(s)) for s in sentences]
    for start in range(len(sentences)):
        terms: set[str] = set()
        for offset in range(window):
            if start + offset < len(sentences):
                terms |= sentence_terms[start + offset]
        score = sum(weight[t] for t in terms & query_terms) + 0.01 * len(sentence_terms[start] & query_terms)
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
