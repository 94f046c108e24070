"""Corpus document: one page of the offline "web"."""

from __future__ import annotations

from pydantic import Field, field_validator

from clarisearch.schema.base import Record


class CorpusDoc(Record):
    """A searchable page. `id` is the stable key that gold evidence ids refer to."""

    id: str = Field(min_length=1)
    url: str = ""
    title: str = ""
    text: str = Field(min_length=1)
    lang: str | None = None
    published: str | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_str(cls, value: object) -> object:
        return str(value) if isinstance(value, int) else value

    def effective_url(self) -> str:
        """The url, or a stable pseudo-url derived from the id when the corpus has none."""
        return self.url or f"doc://{self.id}"
