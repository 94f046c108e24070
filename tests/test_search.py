from __future__ import annotations

import asyncio
from pathlib import Path

from typer.testing import CliRunner

from clarisearch.cli.main import app
from clarisearch.schema.corpus import CorpusDoc
from clarisearch.search.local import LocalIndex, build_index
from clarisearch.search.memory import MemorySearch
from clarisearch.search.snippets import best_passage
from clarisearch.search.text import tokenize

from .conftest import ZH


def test_tokenize_mixes_english_and_chinese() -> None:
    tokens = tokenize("2008年北京举办了夏季奥运会, Lincoln's homes")
    assert {"2008", "北京", "奥运会", "lincoln", "home"} <= set(tokens)
    assert "了" not in tokens and "the" not in tokenize("the capital")


def test_local_index_finds_right_doc_english_and_chinese(tmp_path: Path, small_corpus_file: Path) -> None:
    build_index(small_corpus_file, tmp_path / "idx")
    index = LocalIndex(tmp_path / "idx")
    assert index.search_one("where was basketball invented")[0].doc_id == "en-2"
    assert index.search_one("Nobel Prize in Chemistry polonium")[0].doc_id == "en-3"
    assert index.search_one("哪个城市举办了2008年奥运会")[0].doc_id == "zh-1"
    assert index.search_one("世界博览会在哪里举办")[0].doc_id == "zh-2"
    hit = index.search_one("population of Springfield Illinois 2020")[0]
    assert hit.doc_id == "en-1" and "114,394" in hit.snippet and not hit.snippet.startswith("Springfield is the capital")


def test_index_build_is_deterministic(tmp_path: Path) -> None:
    corpus = ZH / "corpus.jsonl"
    build_index(corpus, tmp_path / "a")
    build_index(corpus, tmp_path / "b")
    a, b = LocalIndex(tmp_path / "a"), LocalIndex(tmp_path / "b")
    for query in ["长城", "西游记 电视剧 导演", "中国 最大 城市 人口", "奥运会 金牌", "北宋 都城"]:
        assert [(h.doc_id, h.score) for h in a.search_one(query, 10)] == [(h.doc_id, h.score) for h in b.search_one(query, 10)]
    assert a.fingerprint == b.fingerprint


def test_ties_are_broken_by_doc_id(tmp_path: Path) -> None:
    docs = [CorpusDoc(id=i, title="Same", text="identical text about zebras") for i in ("c", "a", "b")]
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join(d.model_dump_json() for d in docs))
    build_index(path, tmp_path / "idx")
    assert [h.doc_id for h in LocalIndex(tmp_path / "idx").search_one("zebras")] == ["a", "b", "c"]
    assert [h.doc_id for h in MemorySearch(docs).search_one("zebras")] == ["a", "b", "c"]


def test_visit_by_id_and_url(tmp_path: Path, small_corpus_file: Path) -> None:
    build_index(small_corpus_file, tmp_path / "idx")
    index = LocalIndex(tmp_path / "idx")
    page = asyncio.run(index.visit("https://w.test/Marie_Curie"))
    assert page is not None and page.doc_id == "en-3" and "polonium" in page.text
    assert asyncio.run(index.visit("en-1")).title == "Springfield, Illinois"  # type: ignore[union-attr]
    assert asyncio.run(index.visit("missing")) is None


def test_best_passage_picks_the_matching_sentences() -> None:
    text = "Intro sentence about nothing. Another filler line. The bridge opened in 1998 and spans 1991 metres."
    assert "1998" in best_passage(text, "when did the bridge open")


def test_memory_search_agrees_with_local_index_on_top_hit(tmp_path: Path, small_docs: list[CorpusDoc],
                                                        small_corpus_file: Path) -> None:
    build_index(small_corpus_file, tmp_path / "idx")
    local, memory = LocalIndex(tmp_path / "idx"), MemorySearch(small_docs)
    for query in ["basketball invented", "radium polonium", "上海 世博会"]:
        assert local.search_one(query)[0].doc_id == memory.search_one(query)[0].doc_id


def test_cli_index_build_and_search(tmp_path: Path, small_corpus_file: Path) -> None:
    runner = CliRunner()
    built = runner.invoke(app, ["index", "build", str(small_corpus_file), "--out", str(tmp_path / "idx")])
    assert built.exit_code == 0, built.output
    found = runner.invoke(app, ["search", str(tmp_path / "idx"), "basketball", "--k", "3", "--json"])
    assert found.exit_code == 0, found.output
    assert '"doc_id": "en-2"' in found.output
    bad = runner.invoke(app, ["search", str(tmp_path / "nothing"), "x"])
    assert bad.exit_code == 2


def test_common_corpus_layouts_and_corpus_field_map(tmp_path: Path) -> None:
    import json

    from clarisearch.search.factory import open_search

    pyserini = tmp_path / "pyserini.jsonl"
    pyserini.write_text(json.dumps({"id": "p1", "contents": "The Eiffel Tower is in Paris."}) + "\n"
                        + json.dumps({"_id": 7, "title": "Rome", "text": "Rome is the capital of Italy."}) + "\n")
    index = open_search(f"corpus:{pyserini}")
    assert index.search_one("Eiffel Tower", 1)[0].doc_id == "p1"  # type: ignore[attr-defined]
    assert index.search_one("capital of Italy", 1)[0].doc_id == "7"  # type: ignore[attr-defined]
    custom = tmp_path / "custom.jsonl"
    custom.write_text(json.dumps({"key": "k1", "headline": "Mars", "article": "Mars is the fourth planet."}) + "\n")
    mapped = open_search(f"corpus:{custom}", {"id": "key", "title": "headline", "text": "article"})
    assert mapped.search_one("fourth planet", 1)[0].title == "Mars"  # type: ignore[attr-defined]
