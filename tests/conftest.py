"""Shared fixtures: an isolated CLARISEARCH_HOME per test, fixture paths, a small mixed corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from clarisearch.schema.corpus import CorpusDoc

FIXTURES = Path(__file__).parent / "fixtures"
ZH = FIXTURES / "zh"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    # One shared home per session keeps the demo index built once; caches are per test below.
    home = tmp_path_factory.getbasetemp() / "clarisearch_home"
    monkeypatch.setenv("CLARISEARCH_HOME", str(home))
    return home


@pytest.fixture
def small_docs() -> list[CorpusDoc]:
    return [
        CorpusDoc(id="en-1", url="https://w.test/Springfield_Illinois", title="Springfield, Illinois",
                  text="Springfield is the capital of the U.S. state of Illinois. Abraham Lincoln lived there "
                       "before he became president. Its population was 114,394 in 2020."),
        CorpusDoc(id="en-2", url="https://w.test/Springfield_Massachusetts", title="Springfield, Massachusetts",
                  text="Springfield is a city in western Massachusetts. Basketball was invented there in 1891 by "
                       "James Naismith. The Basketball Hall of Fame is located in the city."),
        CorpusDoc(id="en-3", url="https://w.test/Marie_Curie", title="Marie Curie",
                  text="Marie Curie was a physicist and chemist. She won the Nobel Prize in Physics in 1903. "
                       "She won the Nobel Prize in Chemistry in 1911 for discovering polonium and radium."),
        CorpusDoc(id="zh-1", url="https://w.test/beijing", title="北京", lang="zh",
                  text="北京是中华人民共和国的首都。北京有故宫和长城。2008年北京举办了第29届夏季奥运会。"),
        CorpusDoc(id="zh-2", url="https://w.test/shanghai", title="上海", lang="zh",
                  text="上海是中国的经济中心。上海港是世界上最繁忙的集装箱港口之一。2010年上海举办了世界博览会。"),
    ]


@pytest.fixture
def small_corpus_file(tmp_path: Path, small_docs: list[CorpusDoc]) -> Path:
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join(d.model_dump_json() for d in small_docs) + "\n", encoding="utf-8")
    return path
