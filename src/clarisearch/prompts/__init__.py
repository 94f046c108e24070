"""Prompts are data: template files with {{named}} placeholders, listed and rendered here."""

from __future__ import annotations

import hashlib
import re
from functools import cache
from importlib import resources

_PLACEHOLDER = re.compile(r"\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}")


class PromptError(KeyError):
    pass


@cache
def template(name: str) -> str:
    """The raw text of prompt `name` (file `name.txt` in this package)."""
    try:
        return resources.files(__package__).joinpath(f"{name}.txt").read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise PromptError(f"no prompt template named {name!r}") from exc


def placeholders(name: str) -> list[str]:
    """Placeholder names of a template, in first-use order."""
    seen: list[str] = []
    for match in _PLACEHOLDER.finditer(template(name)):
        if match.group(1) not in seen:
            seen.append(match.group(1))
    return seen


def render(name: str, **values: object) -> str:
    """Fill every placeholder; a missing or unused value is an error (a typo must not pass silently)."""
    needed = set(placeholders(name))
    missing, extra = needed - values.keys(), values.keys() - needed
    if missing or extra:
        raise PromptError(f"prompt {name!r}: missing {sorted(missing)}, unexpected {sorted(extra)}")
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), template(name))


def names() -> list[str]:
    return sorted(p.name[:-4] for p in resources.files(__package__).iterdir() if p.name.endswith(".txt"))


def hashes() -> dict[str, str]:
    """Version of every template by content hash, for the run manifest."""
    return {n: hashlib.sha256(template(n).encode()).hexdigest()[:16] for n in names()}
