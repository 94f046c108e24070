"""Load JSONL/JSON datasets into models, with a field map, failing loudly with file, line and field.

A field map lets a released benchmark file with other field names load without editing it:
`{"id": "qid", "gold.nuggets.text": "nugget", "fused_query": "meta.intent"}`. A source without
dots renames a key inside the canonical field's parent (through lists); a dotted source moves a
value from that path of the raw record.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)

FieldMap = Mapping[str, str]
_LIST_KEYS = ("data", "instances", "samples", "items", "records", "docs", "documents")


@dataclass(frozen=True)
class DataProblem:
    """One problem in an input file, located precisely enough to fix by hand."""

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: field '{self.field}': {self.message}" if self.field else f"{where}: {self.message}"


class DataError(ValueError):
    """Raised when a file cannot be read as the requested kind; lists every problem found."""

    def __init__(self, problems: list[DataProblem]):
        self.problems = problems
        shown = "\n".join(f"  {p}" for p in problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(f"{len(problems)} problem(s) reading data:\n{shown}{more}")


def parse_field_map(pairs: list[str] | None) -> dict[str, str]:
    """Parse CLI `canonical=source` pairs (also accepts comma-separated lists)."""
    result: dict[str, str] = {}
    for chunk in pairs or []:
        for pair in chunk.split(","):
            if not pair.strip():
                continue
            if "=" not in pair:
                raise ValueError(f"field map entry {pair!r} is not of the form canonical=source")
            canonical, source = (part.strip() for part in pair.split("=", 1))
            result[canonical] = source
    return result


def _rename_in(container: Any, parts: list[str], old: str, new: str) -> None:
    if isinstance(container, list):
        for item in container:
            _rename_in(item, parts, old, new)
        return
    if not isinstance(container, dict):
        return
    if parts:
        _rename_in(container.get(parts[0]), parts[1:], old, new)
    elif old in container and new not in container:
        container[new] = container.pop(old)


def _get_path(record: dict[str, Any], dotted: str) -> tuple[bool, Any]:
    node: Any = record
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return True, node


def _set_path(record: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    node = record
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value


def apply_field_map(raw: dict[str, Any], field_map: FieldMap) -> dict[str, Any]:
    """Return the record with source names turned into canonical names."""
    for canonical, source in field_map.items():
        canon_parts = canonical.split(".")
        if "." not in source:
            _rename_in(raw, canon_parts[:-1], source, canon_parts[-1])
        else:
            found, value = _get_path(raw, source)
            if found:
                _set_path(raw, canonical, value)
    return raw


def iter_raw_records(path: Path) -> Iterator[tuple[int, Any, str | None]]:
    """Yield (line or item number, raw object, parse error) from a .jsonl or .json file."""
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix.lower() == ".json" or (text.lstrip().startswith("[") and path.suffix.lower() != ".jsonl"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            yield exc.lineno, None, f"invalid JSON: {exc.msg}"
            return
        if isinstance(data, dict):
            data = next((data[k] for k in _LIST_KEYS if isinstance(data.get(k), list)), [data])
        for index, item in enumerate(data, start=1):
            yield index, item, None
        return
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line), None
        except json.JSONDecodeError as exc:
            yield lineno, None, f"invalid JSON at column {exc.colno}: {exc.msg}"


def _problems_from_validation(file: str, line: int, exc: ValidationError, field_map: FieldMap) -> list[DataProblem]:
    problems = []
    for err in exc.errors():
        field = ".".join(str(part) for part in err["loc"])
        source = next((src for canon, src in field_map.items() if field.startswith(canon)), None)
        suffix = f" (mapped from '{source}')" if source else ""
        problems.append(DataProblem(file, line, field, f"{err['msg']}{suffix}"))
    return problems


def read_records(path: str | Path, model: type[M], field_map: FieldMap | None = None) -> tuple[list[M], list[DataProblem]]:
    """Read every record, collecting all problems instead of stopping at the first."""
    path = Path(path)
    field_map = dict(field_map or {})
    if not path.exists():
        return [], [DataProblem(str(path), 0, "", "file not found")]
    records: list[M] = []
    problems: list[DataProblem] = []
    seen: dict[str, int] = {}
    for line, raw, error in iter_raw_records(path):
        if error:
            problems.append(DataProblem(str(path), line, "", error))
            continue
        if not isinstance(raw, dict):
            problems.append(DataProblem(str(path), line, "", f"expected a JSON object, got {type(raw).__name__}"))
            continue
        try:
            record = model.model_validate(apply_field_map(raw, field_map))
        except ValidationError as exc:
            problems.extend(_problems_from_validation(str(path), line, exc, field_map))
            continue
        record_id = getattr(record, "id", None)
        if isinstance(record_id, str):
            if record_id in seen:
                problems.append(DataProblem(str(path), line, "id", f"duplicate id {record_id!r} (first on line {seen[record_id]})"))
                continue
            seen[record_id] = line
        records.append(record)
    if not records and not problems:
        problems.append(DataProblem(str(path), 0, "", "no records"))
    return records, problems


def load_records(path: str | Path, model: type[M], field_map: FieldMap | None = None) -> list[M]:
    """Load a dataset, raising DataError listing every problem if any line is bad."""
    records, problems = read_records(path, model, field_map)
    if problems:
        raise DataError(problems)
    return records


def validate_file(path: str | Path, model: type[M], field_map: FieldMap | None = None) -> list[DataProblem]:
    """Every problem in a file at once (empty list: the file is valid)."""
    return read_records(path, model, field_map)[1]
