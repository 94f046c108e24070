"""The trajectory viewer: its JSON API over HTTP, and the page in headless Chromium (untrusted text stays text)."""

from __future__ import annotations

import copy
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from clarisearch.llm.registry import resolve_bindings
from clarisearch.runner.execute import execute
from clarisearch.schema.config import RunConfig
from clarisearch.viewer import ViewerServer, serve

FIXTURES = Path(__file__).parent / "fixtures" / "zh"
CHROMIUM = Path("/usr/bin/chromium")
PAYLOAD = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'
INJECTED_KEY = "cts|cts-zh-001|k1|batch|injected"

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright

    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover - depends on the environment
    HAVE_PLAYWRIGHT = False

SKIP_REASON = "needs Debian's /usr/bin/chromium and `pip install playwright`"


def browser_test(fn: Any) -> Any:
    """Marked `browser`, skipped without Chromium or Playwright."""
    return pytest.mark.browser(pytest.mark.skipif(not CHROMIUM.exists() or not HAVE_PLAYWRIGHT, reason=SKIP_REASON)(fn))


def _read_results(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two CTS runs (k 1-3 with gold; k 1 only) and one Disco run, plus one CTS episode carrying markup."""
    base = tmp_path_factory.mktemp("viewer_runs")
    search = f"corpus:{FIXTURES / 'corpus.jsonl'}"
    roles = resolve_bindings(None, {})
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CLARISEARCH_HOME", str(base / "home"))
        execute(RunConfig(protocol="cts", data=str(FIXTURES / "cts.jsonl"), roles=roles, search=search, ks=[1, 2, 3],
                          modes=["batch"], include_gold=True), base / "cts_a", progress=False)
        execute(RunConfig(protocol="cts", data=str(FIXTURES / "cts.jsonl"), roles=roles, search=search, ks=[1],
                          modes=["batch"], limit=3), base / "cts_b", progress=False)
        execute(RunConfig(protocol="disco", data=str(FIXTURES / "disco.jsonl"), roles=roles, search=search,
                          setting="guided", budgets={"max_turns": 6}), base / "disco", progress=False)
    source = next(r for r in _read_results(base / "cts_a") if r["key"] == "cts|cts-zh-001|k1|batch")
    injected = copy.deepcopy(source)
    injected["key"] = INJECTED_KEY
    injected["agent"]["answer"] = PAYLOAD
    injected["agent"]["steps"][-1]["output"] = f"<answer>{PAYLOAD}</answer>"
    injected["agent"]["steps"][0]["tool_calls"][0]["hits"][0][0]["snippet"] = PAYLOAD
    injected["agent"]["steps"][0]["tool_calls"][0]["hits"][0][0]["url"] = "javascript:window.__pwned=3"
    injected["questions"][0] = PAYLOAD
    injected["coverage"][0]["reason"] = PAYLOAD
    injected["judge_raw"] = [PAYLOAD]
    with (base / "cts_a" / "results.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(injected, ensure_ascii=False) + "\n")
    return {"cts_a": base / "cts_a", "cts_b": base / "cts_b", "disco": base / "disco"}


@pytest.fixture(scope="module")
def viewer(runs: dict[str, Path]) -> Iterator[tuple[ViewerServer, str]]:
    server, url = serve([runs["cts_a"], runs["cts_b"], runs["disco"]])
    yield server, url
    server.stop()


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def _api(url: str, path: str, **params: Any) -> Any:
    status, _, body = _get(url + path.lstrip("/") + ("?" + urlencode(params, doseq=True) if params else ""))
    assert status == 200, body
    return json.loads(body)


# ---------------------------------------------------------------- HTTP API (no browser)


def test_json_api_lists_filters_and_returns_episodes(viewer: tuple[ViewerServer, str], runs: dict[str, Path]) -> None:
    _, url = viewer
    assert url.startswith("http://127.0.0.1:")
    listed = _api(url, "/api/runs")["runs"]
    assert [(r["id"], r["label"], r["protocol"]) for r in listed] == [("0", "cts_a", "cts"), ("1", "cts_b", "cts"),
                                                                       ("2", "disco", "disco")]
    everything = _api(url, "/api/episodes")
    n_a, n_b, n_d = (len({r["key"] for r in _read_results(runs[name])}) for name in ("cts_a", "cts_b", "disco"))
    assert everything["total"] == everything["matched"] == n_a + n_b + n_d
    assert {"orig", "gold", "k1", "k2", "k3", "interactive:guided:none"} <= set(everything["facets"]["system"])

    k2 = _api(url, "/api/episodes", system="k2")["rows"]
    assert len(k2) == 8 and {r["k"] for r in k2} == {2}
    disco = _api(url, "/api/episodes", run="2")["rows"]
    assert len(disco) == n_d and all(r["protocol"] == "disco" for r in disco)
    both_k = _api(url, "/api/episodes", k=["1", "3"], run="0")["rows"]
    assert {r["k"] for r in both_k} == {1, 3}
    high = _api(url, "/api/episodes", run="0", score_min="50", score_max="80")["rows"]
    assert high and all(50 <= r["score"] <= 80 for r in high)
    assert _api(url, "/api/episodes", outcome="judged", termination="answered", run="0")["matched"] == n_a
    assert [r["key"] for r in _api(url, "/api/episodes", q="__pwned")["rows"]] == [INJECTED_KEY]

    detail = _api(url, "/api/episode", run="0", key=INJECTED_KEY)
    assert detail["episode"]["agent"]["answer"] == PAYLOAD  # JSON carries the raw text; the page escapes it
    assert detail["instance"]["id"] == "cts-zh-001" and detail["instance"]["blurred_query"]
    assert detail["events"] == []  # the injected copy has no events of its own
    events = _api(url, "/api/episode", run="0", key="cts|cts-zh-001|k1|batch")["events"]
    assert {"episode_start", "clarification", "rewrite", "judge_verdict"} <= {e["type"] for e in events}
    disco_key = disco[0]["key"]
    disco_detail = _api(url, "/api/episode", run="2", key=disco_key)
    record = next(r for r in reversed(_read_results(runs["disco"])) if r["key"] == disco_key)
    assert disco_detail["episode"] == record
    same = _api(url, "/api/instance", id="cts-zh-001")["rows"]
    assert {(r["run"], r["system"]) for r in same} >= {("0", "orig"), ("0", "k1"), ("1", "k1")}


def test_http_headers_errors_and_host_check(viewer: tuple[ViewerServer, str]) -> None:
    _, url = viewer
    status, headers, body = _get(url)
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "script-src 'self'" in headers["Content-Security-Policy"] and headers["X-Content-Type-Options"] == "nosniff"
    page = body.decode("utf-8")
    assert '<script src="/static/viewer.js" defer></script>' in page and page.count("<script") == 1
    status, _, body = _get(url + "static/viewer.js")
    assert status == 200 and b"innerHTML" not in body and b"insertAdjacentHTML" not in body
    assert _get(url + "api/episode?run=0&key=nope")[0] == 404
    assert _get(url + "api/nothing")[0] == 404
    assert _get(url + "api/episodes?limit=many")[0] == 400
    assert _get(url + "api/runs", headers={"Host": "attacker.example:80"})[0] == 403


# ---------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def browser(runs: dict[str, Path]) -> Iterator[Browser]:
    # `runs` first: the runs are made with asyncio.run, impossible once Playwright's loop is running.
    # Only tests marked with the skipif above use this fixture.
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield launched
        launched.close()


@pytest.fixture
def page(viewer: tuple[ViewerServer, str], browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.goto(viewer[1])
    expect(opened.locator("#episode-list tr").first).to_be_visible()
    yield opened
    context.close()
    assert errors == []


@browser_test
def test_untrusted_text_renders_as_text_and_runs_nothing(page: Page, runs: dict[str, Path]) -> None:
    page.select_option("#f-system", "k1")
    page.fill("#f-text", "__pwned")
    rows = page.locator("#episode-list tr")
    expect(rows).to_have_count(1)
    rows.first.click()
    pane = page.locator(".episode-pane")
    expect(pane).to_have_count(1)
    expect(pane).to_have_attribute("data-key", INJECTED_KEY)

    expect(pane.locator("pre.answer")).to_have_text(PAYLOAD)
    expect(pane.get_by_text(PAYLOAD).first).to_be_visible()
    expect(pane.locator(".cq-text").first).to_have_text(PAYLOAD)
    assert page.locator("#detail script, #detail img, #detail iframe, #detail [onerror]").count() == 0
    assert page.locator("#detail a[href^='javascript']").count() == 0
    assert page.evaluate("() => window.__pwned") is None

    # the whole trajectory is there: clarification, rewrite, searches with hits, visits, verdicts
    source = next(r for r in _read_results(runs["cts_a"]) if r["key"] == INJECTED_KEY)
    expect(pane.locator(".cq")).to_have_count(len(source["questions"]))
    expect(pane.locator(".ua")).to_have_count(len(source["answers"]))
    unknown = sum(a.strip().lower() == "unknown" for a in source["answers"])
    expect(pane.locator(".ua.unknown")).to_have_count(unknown)
    expect(pane.locator("pre.rewrite-text")).to_have_text(source["rewrite"])
    expect(pane.locator(".step")).to_have_count(len(source["agent"]["steps"]))
    expect(pane.locator(".tool-search table.hits tbody tr")).to_have_count(len(source["agent"]["steps"][0]["tool_calls"][0]["hits"][0]))
    expect(pane.locator(".tool-visit details")).to_have_count(len(source["agent"]["steps"][1]["tool_calls"][0]["page"]["pages"]))
    verdicts = pane.locator("table.verdicts tbody tr")
    expect(verdicts).to_have_count(len(source["coverage"]))
    for row, verdict in zip(verdicts.all(), source["coverage"], strict=True):
        expect(row.locator(".verdict")).to_have_text(verdict["label"])
    pane.locator("summary", has_text="judge raw output").click()
    expect(pane.locator("pre.judge-raw")).to_have_text([PAYLOAD])
    assert page.evaluate("() => window.__pwned") is None


@browser_test
def test_disco_dialogue_turn_by_turn(page: Page, runs: dict[str, Path]) -> None:
    record = _read_results(runs["disco"])[0]
    page.select_option("#f-run", "2")
    page.fill("#f-text", record["instance_id"])
    rows = page.locator("#episode-list tr")
    expect(rows).to_have_count(1)
    rows.first.click()
    pane = page.locator(".episode-pane")
    turns = pane.locator(".turn")
    expect(turns).to_have_count(len(record["turns"]))
    for turn, data in zip(turns.all(), record["turns"], strict=True):
        expect(turn.locator(".verdict")).to_have_text(data["outcome"])
        expect(turn.locator(".agent-text")).to_have_text(data["text"])
        expect(turn.locator(".user-msg")).to_contain_text(data["user_reply"])
    checkpoints = pane.locator("section.judge table.verdicts tbody tr")
    expect(checkpoints).to_have_count(record["n_checkpoints"])
    expect(pane.locator("pre.answer")).to_have_text(record["final_response"])


@browser_test
def test_two_runs_side_by_side_and_deep_link(page: Page, viewer: tuple[ViewerServer, str]) -> None:
    page.select_option("#f-run", "0")
    page.select_option("#f-system", "k1")
    page.fill("#f-text", "cts-zh-002")
    expect(page.locator("#episode-list tr")).to_have_count(1)
    page.locator("#episode-list tr").first.click()
    expect(page.locator(".episode-pane")).to_have_count(1)
    other = "1\u0001cts|cts-zh-002|k1|batch"
    page.select_option("#compare-select", other)
    panes = page.locator(".panes.two .episode-pane")
    expect(panes).to_have_count(2)
    expect(panes.nth(0)).to_have_attribute("data-run", "0")
    expect(panes.nth(1)).to_have_attribute("data-run", "1")
    expect(panes.nth(1)).to_have_attribute("data-key", "cts|cts-zh-002|k1|batch")

    link = page.url  # the hash keeps filters, selection and comparison
    fresh = page.context.new_page()
    fresh.goto(link)
    expect(fresh.locator(".panes.two .episode-pane")).to_have_count(2)
    expect(fresh.locator("#f-text")).to_have_value("cts-zh-002")
    fresh.close()
