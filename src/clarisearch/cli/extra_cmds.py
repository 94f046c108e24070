"""Commands added by later modules (build-gold, analyses, viewer) are registered here."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Attach the optional command groups to the main app."""
