"""Base model shared by every record that crosses the disk."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

SCHEMA_VERSION = 1


class Record(BaseModel):
    """A versioned record; unknown fields in user data are ignored, not fatal."""

    model_config = ConfigDict(extra="ignore", frozen=False)

    schema_version: int = SCHEMA_VERSION


class StrictRecord(BaseModel):
    """A record written by clarisearch itself: unknown fields are an error."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
