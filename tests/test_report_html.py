"""report.html on real (rule-based, offline) runs: numbers equal summary.json, data is escaped, figures embedded."""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from clarisearch.llm.registry import resolve_bindings
from clarisearch.report.build import build_report, load_run
from clarisearch.report.html import markdown_to_html
from clarisearch.report.plots import report_figures
from clarisearch.runner.execute import execute
from clarisearch.schema.config import RunConfig

FIXTURES = Path(__file__).parent / "fixtures" / "zh"
PAYLOAD = "<script>window.__pwned=1</script>"


def _cts_config() -> RunConfig:
    return RunConfig(protocol="cts", data=str(FIXTURES / "cts.jsonl"), roles=resolve_bindings(None, {}),
                     search=f"corpus:{FIXTURES / 'corpus.jsonl'}", ks=[1, 2, 3], modes=["batch"], include_gold=True,
                     budgets={"max_llm_calls": 40}, seed=0)


def _disco_config() -> RunConfig:
    return RunConfig(protocol="disco", data=str(FIXTURES / "disco.jsonl"), roles=resolve_bindings(None, {}),
                     search=f"corpus:{FIXTURES / 'corpus.jsonl'}", setting="neutral", ablation="none",
                     budgets={"max_turns": 12, "max_searches": 25, "max_tokens": None})


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("report_runs")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CLARISEARCH_HOME", str(base / "home"))
        execute(_cts_config(), base / "cts", progress=False)
        execute(_disco_config(), base / "disco", progress=False)
    return {"cts": base / "cts", "disco": base / "disco"}


class _Tables(HTMLParser):
    """Collects every <table id=...> as a list of rows of cell texts, and every <img src>."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.images: list[dict[str, str | None]] = []
        self.scripts = 0
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "table":
            self._table = values.get("id") or f"anon{len(self.tables)}"
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "img":
            self.images.append(values)
        elif tag == "script":
            self.scripts += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _parse(path: Path) -> _Tables:
    parser = _Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _pct(value: float | None) -> str:
    """The Disco tables' percentage format."""
    return "–" if value is None else f"{100 * value:.1f}"


def _row(rows: list[list[str]], *first: str) -> list[str]:
    found = [r for r in rows if r[: len(first)] == list(first)]
    assert len(found) == 1, (first, rows)
    return found[0]


def test_html_numbers_equal_summary_json(runs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = build_report([runs["cts"], runs["disco"]], out, html=True)
    html_path = out / "report.html"
    assert html_path in result["files"]
    page = _parse(html_path)
    assert page.scripts == 0

    cts_summary = json.loads((runs["cts"] / "summary.json").read_text(encoding="utf-8"))
    scores = page.tables["t-restore-score-100-by-system-tables-2-and-6"]
    assert scores[0][:4] == ["run", "system", "n", "mean (Δ vs orig)"]
    assert {"orig", "k1", "k2", "k3", "gold"} <= set(cts_summary["systems"])
    for system, entry in cts_summary["systems"].items():
        row = _row(scores, "cts", system)
        score = entry["score"]
        delta = entry.get("delta_vs_orig", {}).get("delta")
        mean = f"{score['mean']:.3f}" + (f" ({delta:+.3f})" if delta is not None else "")
        assert row[2:8] == [str(score["n"]), mean, f"{score['p50']:.3f}", f"{score['p90']:.3f}",
                            f"{score['min']:.3f}", f"{score['max']:.3f}"]
        if delta is not None:
            ci = _row(page.tables["t-mean-improvement-over-orig-with-paired-bootstrap-95-ci-table-3"], "cts", system)
            assert ci[4] == f"[{entry['delta_vs_orig']['ci_low']:.3f}, {entry['delta_vs_orig']['ci_high']:.3f}]"
        if "diagnostics" in entry:
            ua = _row(page.tables["t-ua-diagnostics-table-4"], "cts", system)
            assert ua[3] == f"{entry['diagnostics']['ua_unknown_rate']:.3f}"

    disco_summary = json.loads((runs["disco"] / "summary.json").read_text(encoding="utf-8"))
    main = page.tables["t-main-table-percentages-costs-per-task"]
    for group, entry in disco_summary["groups"].items():
        row = _row(main, "disco", group)
        assert row[2:5] == [str(entry["n"]), _pct(entry["e2e_accuracy"]), _pct(entry["cp_pass_rate"])]
        assert row[8] == _pct(entry["detection"]["f1"])
        assert row[9] == _pct(entry["clarification"]["ce_a"])

    # figures are inline SVG data URIs, one per kind of data present; nothing is fetched from elsewhere
    figures = {img.get("alt") for img in page.images}
    assert len(page.images) == 5, figures
    assert all(str(img.get("src", "")).startswith("data:image/svg+xml;base64,") for img in page.images)
    text = html_path.read_text(encoding="utf-8")
    assert 'src="http' not in text and 'href="http' not in text
    assert "summary.json differs" not in text


def test_injected_markup_in_results_is_escaped(runs: dict[str, Path], tmp_path: Path) -> None:
    run_dir = tmp_path / 'cts<img src=x onerror="window.__pwned=2">'
    shutil.copytree(runs["cts"], run_dir)
    lines = (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["key"] += "|injected"
    record["agent"]["termination"] = PAYLOAD
    record["agent"]["answer"] = PAYLOAD
    with (run_dir / "results.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")

    out = tmp_path / "report"
    build_report([run_dir], out, html=True)
    text = (out / "report.html").read_text(encoding="utf-8")
    assert "<script" not in text
    assert "<img src=x" not in text
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in text  # shown in the terminations table
    assert "onerror=&quot;window.__pwned=2&quot;" in text  # the run label
    assert "summary.json differs" in text  # results changed after the run: the page says so
    assert _parse(out / "report.html").scripts == 0


def test_figures_only_for_data_present(runs: dict[str, Path]) -> None:
    cts_only = report_figures([load_run(runs["cts"])])
    assert [f.key for f in cts_only] == ["restore_score_by_k", "ua_question_types"]
    disco_only = report_figures([load_run(runs["disco"])])
    assert [f.key for f in disco_only] == ["detection_vs_ce", "profiles", "difficulty"]
    for figure in cts_only + disco_only:
        assert "<svg" in figure.svg and "<script" not in figure.svg
    empty = load_run(runs["cts"])
    empty.summary = {"protocol": "cts", "systems": {}}
    assert report_figures([empty]) == []


def test_markdown_to_html_escapes_cells_and_places_figures() -> None:
    markdown = "\n".join(["# title", "| a | b |", "| --- | --- |", "| <b>x</b> | 1.500 (+0.250) |", "",
                          "## Clarify-Then-Search", "### Table <2>", "_no rows_", "| c |", "| --- |", "| & |"])
    body, toc = markdown_to_html(markdown, [])
    assert "&lt;b&gt;x&lt;/b&gt;" in body and "<b>x" not in body
    assert '<td class="num">1.500 (+0.250)</td>' in body
    assert 'id="t-runs"' in body and 'id="t-table-2"' in body
    assert "<h3 id=\"table-2\">Table &lt;2&gt;</h3>" in body
    assert "<p><em>no rows</em></p>" in body and "<td>&amp;</td>" in body
    assert toc[0] == (2, "runs", "Runs")
