"""Base model shared by every record that crosses the disk."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

SCHEMA_VERSION = 1


class Record(BaseModel):
    """A versioned record; unknown fields in user data are ignored, not fatal; numbers given where text
    is expected (an answer of 1966, an id of 7) are read as text."""

    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True)

    schema_version: int = SCHEMA_VERSION


class StrictRecord(BaseModel):
    """A record written by clarisearch itself: unknown fields are an error."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
