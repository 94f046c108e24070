"""The resolved configuration of a run: enough to rebuild it exactly, and no secrets."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import Field

from clarisearch.schema.base import StrictRecord

# Settings that do not change any episode's output, so a resume may change them.
UNHASHED = {"concurrency", "cache_mode", "limit", "progress", "config_hash"}


class RunConfig(StrictRecord):
    protocol: str
    data: str
    data_sha256: str = ""
    field_map: dict[str, str] = Field(default_factory=dict)
    corpus_field_map: dict[str, str] = Field(default_factory=dict)
    limit: int | None = None
    roles: dict[str, str] = Field(default_factory=dict)
    providers: dict[str, dict[str, Any]] = Field(default_factory=dict)
    search: str = "demo"
    search_fingerprint: str = ""
    snapshot: str | None = None
    snapshot_mode: str | None = None
    ks: list[int] = Field(default_factory=list)
    modes: list[str] = Field(default_factory=list)
    include_gold: bool = False
    ask_gate: bool = False
    clarifier_prompt: str = "paper"
    tool_format: str = "tags"
    setting: str | None = None
    ablation: str = "none"
    qc_mode: str | None = None
    budgets: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    prompt_hashes: dict[str, str] = Field(default_factory=dict)
    concurrency: int = 4
    cache_mode: str = "use"

    def config_hash(self) -> str:
        payload = {k: v for k, v in self.model_dump(mode="json").items() if k not in UNHASHED}
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
