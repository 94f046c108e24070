"""Helpers shared by CLI commands: error display, multi-value options, run-config building."""

from __future__ import annotations

import json
import time
import tomllib
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from clarisearch.llm.registry import ENDPOINT_OPTIONS, SpecError, parse_role_overrides, resolve_bindings
from clarisearch.runner.store import ConfigMismatchError
from clarisearch.schema.loader import DataError, parse_field_map
from clarisearch.search.base import SearchError

console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)
P = ParamSpec("P")
R = TypeVar("R")

# Options that take several space-separated values (`--k 1 2 3`, `--field-map a=b c=d`), with the test
# a following word must pass to count as one more value; expanded before click parses the line.
MULTI_VALUE_OPTIONS: dict[str, Callable[[str], bool]] = {
    "--k": str.isdigit,
    "--mode": lambda word: word in ("batch", "adaptive"),
    "--role": lambda word: "=" in word,
    "--field-map": lambda word: "=" in word,
    "--corpus-field-map": lambda word: "=" in word,
}


def expand_multi_value_options(argv: list[str]) -> list[str]:
    """Turn `--k 1 2 3` into `--k 1 --k 2 --k 3` (click options take one value each)."""
    out: list[str] = []
    current: str | None = None
    for arg in argv:
        if arg.startswith("-"):
            current = arg if arg in MULTI_VALUE_OPTIONS else None
            out.append(arg)
        elif current is not None and out[-1] != current and MULTI_VALUE_OPTIONS[current](arg):
            out.extend([current, arg])
        else:
            if current is not None and out[-1] != current:
                current = None
            out.append(arg)
    return out


def friendly_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Show user errors (bad data, bad specs, changed configs) as one clear message, exit code 2."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (DataError, SpecError, ConfigMismatchError, SearchError, FileNotFoundError, ValueError) as exc:
            err_console.print(f"[bold red]error:[/] {exc}", highlight=False, markup=True)
            raise typer.Exit(2) from None

    return wrapper


def role_bindings(model: str | None, role: list[str] | None) -> dict[str, str]:
    return resolve_bindings(model, parse_role_overrides(role))


def load_providers(path: Path | None) -> dict[str, dict[str, Any]]:
    """Provider endpoints from a TOML/JSON file: `[providers.NAME] base_url=..., api_key_env=...`.

    Keys themselves are refused: the file names the environment variable that holds a key.
    """
    if path is None:
        return {}
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    providers = data.get("providers", data)
    if not isinstance(providers, dict):
        raise ValueError(f"{path}: expected a [providers.NAME] table per provider")
    for name, entry in providers.items():
        if not isinstance(entry, dict):
            raise ValueError(f"{path}: providers.{name} must be a table")
        if "api_key" in entry:
            raise ValueError(f"{path}: providers.{name}.api_key: never store keys in files; set api_key_env to the "
                             "name of an environment variable holding the key")
        unknown = set(entry) - ENDPOINT_OPTIONS
        if unknown:
            raise ValueError(f"{path}: providers.{name}: unknown field(s) {sorted(unknown)}; known: {sorted(ENDPOINT_OPTIONS)}")
    return providers


def field_map(pairs: list[str] | None) -> dict[str, str]:
    return parse_field_map(pairs)


def default_out(protocol: str) -> Path:
    return Path("runs") / f"{protocol}-{time.strftime('%Y%m%d-%H%M%S')}"


def search_spec(search: str | None, corpus: Path | None, data: str) -> str:
    if corpus is not None:
        return f"corpus:{corpus}"
    if search:
        return search
    if data == "demo":
        return "demo"
    raise typer.BadParameter("give --search local:INDEX_DIR (or --corpus CORPUS.jsonl) for your own data",
                             param_hint="--search")


def headline(summary: dict[str, Any]) -> str:
    """One line of the run's main numbers."""
    def pct(value: float | None) -> str:
        return "–" if value is None else f"{100 * value:.1f}%"

    if summary.get("protocol") == "cts":
        parts = []
        for name, entry in summary["systems"].items():
            mean, delta = entry["score"]["mean"], entry.get("delta_vs_orig", {}).get("delta")
            text = "–" if mean is None else f"{mean:.1f}" + (f" ({delta:+.1f})" if delta is not None else "")
            errors = f", {entry['errors']} errors" if entry["errors"] else ""
            parts.append(f"{name} {text}{errors}")
        return "restore_score_100: " + " | ".join(parts)
    return " | ".join(f"{group}: E2E {pct(e['e2e_accuracy'])}, CP pass {pct(e['cp_pass_rate'])}"
                      + (f", {e['errors']} errors" if e["errors"] else "") for group, e in summary["groups"].items())


def print_summary_hint(run_dir: Path, summary: dict[str, Any]) -> None:
    console.print(headline(summary), highlight=False)
    console.print(f"[green]run complete:[/] {run_dir}  (report: clarisearch report {run_dir})")
