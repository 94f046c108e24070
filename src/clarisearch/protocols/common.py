"""Shared plumbing of the protocol planners: data loading, search, role factory, fingerprints."""

from __future__ import annotations

import hashlib
from pathlib import Path

from clarisearch import prompts
from clarisearch.llm.base import LLM
from clarisearch.llm.registry import EndpointSettings, LLMFactory
from clarisearch.protocols.components import Roles
from clarisearch.schema.config import RunConfig
from clarisearch.search.base import SearchBackend
from clarisearch.search.factory import demo_path, home_dir, open_search
from clarisearch.search.snapshot import SnapshotSearch


def data_path(config: RunConfig, demo_name: str) -> Path:
    return demo_path(demo_name) if config.data == "demo" else Path(config.data)


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def open_run_search(config: RunConfig) -> SearchBackend:
    """The run's search backend (wrapped by the snapshot recorder/replayer if asked); fingerprints it."""
    if config.snapshot and config.snapshot_mode == "replay":
        backend: SearchBackend = SnapshotSearch(config.snapshot, "replay")
    else:
        backend = open_search(config.search, config.corpus_field_map)
        if config.snapshot:
            backend = SnapshotSearch(config.snapshot, "record", backend)
    config.search_fingerprint = backend.fingerprint
    return backend


def build_roles(config: RunConfig, overrides: dict[str, LLM] | None) -> Roles:
    settings = EndpointSettings(cache_mode=config.cache_mode, cache_path=home_dir() / "llm_cache.sqlite",  # type: ignore[arg-type]
                                providers=config.providers)
    config.prompt_hashes = prompts.hashes()
    return Roles(config.roles, LLMFactory(settings, overrides))
