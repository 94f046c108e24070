"""Corpus document: one page of the offline "web"."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from clarisearch.schema.base import Record


class CorpusDoc(Record):
    """A searchable page. `id` is the stable key that gold evidence ids refer to."""

    id: str = Field(min_length=1)
    url: str = ""
    title: str = ""
    text: str = Field(min_length=1)
    lang: str | None = None
    published: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _common_layouts(cls, data: Any) -> Any:
        """Accept the usual corpus layouts (Pyserini `contents`, BEIR `_id`, `docid`, `body`) as they are."""
        if isinstance(data, dict):
            data = dict(data)
            for alias in ("docid", "doc_id", "_id", "pid"):
                if "id" not in data and alias in data:
                    data["id"] = data.pop(alias)
            for alias in ("contents", "content", "body", "passage"):
                if "text" not in data and alias in data:
                    data["text"] = data.pop(alias)
        return data

    def effective_url(self) -> str:
        """The url, or a stable pseudo-url derived from the id when the corpus has none."""
        return self.url or f"doc://{self.id}"
