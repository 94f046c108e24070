"""Read a corpus (a JSONL/JSON file or a folder of them) as a stream of validated documents."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

from pydantic import ValidationError

from clarisearch.schema.corpus import CorpusDoc
from clarisearch.schema.loader import DataError, DataProblem, FieldMap, apply_field_map, iter_raw_records


def corpus_files(path: str | Path) -> list[Path]:
    """The files of a corpus: the file itself, or every .jsonl/.json in a folder, sorted by name."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in (".jsonl", ".json"))
        if not files:
            raise DataError([DataProblem(str(path), 0, "", "folder holds no .jsonl or .json corpus file")])
        return files
    if not path.exists():
        raise DataError([DataProblem(str(path), 0, "", "corpus file not found")])
    return [path]


def corpus_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    for file in corpus_files(path):
        digest.update(file.name.encode())
        with file.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def iter_corpus(path: str | Path, field_map: FieldMap | None = None) -> Iterator[CorpusDoc]:
    """Yield documents; after the stream, raise DataError listing every bad line (nothing is skipped silently)."""
    problems: list[DataProblem] = []
    seen: set[str] = set()
    for file in corpus_files(path):
        for line, raw, error in iter_raw_records(file):
            if error or not isinstance(raw, dict):
                problems.append(DataProblem(str(file), line, "", error or "expected a JSON object"))
                continue
            try:
                doc = CorpusDoc.model_validate(apply_field_map(raw, dict(field_map or {})))
            except ValidationError as exc:
                problems.extend(
                    DataProblem(str(file), line, ".".join(map(str, e["loc"])), e["msg"]) for e in exc.errors()
                )
                continue
            if doc.id in seen:
                problems.append(DataProblem(str(file), line, "id", f"duplicate document id {doc.id!r}"))
                continue
            seen.add(doc.id)
            yield doc
    if problems:
        raise DataError(problems)


def load_corpus(path: str | Path, field_map: FieldMap | None = None) -> list[CorpusDoc]:
    return list(iter_corpus(path, field_map))
