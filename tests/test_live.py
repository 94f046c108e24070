"""Live smoke tests against a real model endpoint: skipped unless CLARISEARCH_LIVE=1.

    CLARISEARCH_LIVE=1 CLARISEARCH_LIVE_MODEL=openai/gpt-4o-mini OPENAI_API_KEY=... pytest tests/test_live.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clarisearch.llm.registry import ROLES
from clarisearch.runner.execute import execute
from clarisearch.schema.config import RunConfig

pytestmark = [pytest.mark.live, pytest.mark.skipif(os.environ.get("CLARISEARCH_LIVE") != "1",
                                                  reason="live test: set CLARISEARCH_LIVE=1 and the model's key")]
MODEL = os.environ.get("CLARISEARCH_LIVE_MODEL", "openai/gpt-4o-mini")


def test_cts_pipeline_on_a_live_model(tmp_path: Path) -> None:
    config = RunConfig(protocol="cts", data="demo", search="demo", roles=dict.fromkeys(ROLES, MODEL), ks=[1],
                       modes=["batch"], limit=2, concurrency=2)
    summary = execute(config, tmp_path / "run", progress=False)
    k1 = summary["systems"]["k1"]
    assert k1["errors"] == 0 and k1["judge_parse_failures"] == 0 and k1["score"]["n"] == 2
    assert k1["diagnostics"]["clarifier_parse_failures"] == 0


def test_disco_episode_on_a_live_model(tmp_path: Path) -> None:
    config = RunConfig(protocol="disco", data="demo", search="demo", roles=dict.fromkeys(ROLES, MODEL),
                       setting="guided", limit=1, concurrency=1)
    group = execute(config, tmp_path / "run", progress=False)["groups"]["interactive:guided:none"]
    assert group["errors"] == 0 and group["n"] == 1
