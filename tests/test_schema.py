from __future__ import annotations

import json
from pathlib import Path

import pytest

from clarisearch.schema import CorpusDoc, CtsInstance, DataError, DiscoSample, load_records, validate_file
from clarisearch.schema.loader import parse_field_map

from .conftest import ZH

DISCO = {
    "id": "d1", "language": "en", "domain": "film", "question": "Who scored the film about the shark?",
    "checkpoints": [
        {"id": "cp1", "sub_question": "Which film?", "type": "ambi", "ambiguity_type": "version", "answer": "Jaws (1975)",
         "candidates": ["Jaws (1975)", "Jaws 2"], "ambiguity": "which Jaws film", "clue_if_asked": "The first one, 1975."},
        {"id": "cp2", "sub_question": "Who composed its score?", "type": "unambi", "answer": "John Williams"},
    ],
    "final_answer": "John Williams",
}


def write_jsonl(path: Path, rows: list[object]) -> Path:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_disco_round_trip_and_difficulty() -> None:
    sample = DiscoSample.model_validate(DISCO)
    again = DiscoSample.model_validate_json(sample.model_dump_json())
    assert again == sample
    assert sample.schema_version == 1
    assert sample.difficulty == "easy" and sample.n_ambiguous == 1


def test_unambiguous_variant_folds_clues_into_question() -> None:
    variant = DiscoSample.model_validate(DISCO).unambiguous_variant()
    assert "The first one, 1975." in variant.question
    assert all(cp.type == "unambi" for cp in variant.checkpoints)
    assert variant.difficulty == "unambiguous"


def test_bad_lines_name_file_line_and_field(tmp_path: Path) -> None:
    bad_cp = json.loads(json.dumps(DISCO))
    bad_cp["id"] = "d2"
    del bad_cp["checkpoints"][1]["answer"]
    path = write_jsonl(tmp_path / "d.jsonl", [DISCO, "{not json", bad_cp, DISCO])
    problems = validate_file(path, DiscoSample)
    rendered = [str(p) for p in problems]
    assert any(p.line == 2 and "invalid JSON" in p.message for p in problems), rendered
    assert any(p.line == 3 and p.field == "checkpoints.1.answer" for p in problems), rendered
    assert any(p.line == 4 and p.field == "id" and "duplicate" in p.message for p in problems), rendered
    with pytest.raises(DataError) as err:
        load_records(path, DiscoSample)
    assert f"{path}:3: field 'checkpoints.1.answer'" in str(err.value)


def test_ambi_checkpoint_without_clue_is_rejected(tmp_path: Path) -> None:
    row = json.loads(json.dumps(DISCO))
    row["checkpoints"][0]["clue_if_asked"] = ""
    problems = validate_file(write_jsonl(tmp_path / "d.jsonl", [row]), DiscoSample)
    assert problems and problems[0].field == "checkpoints.0" and "clue_if_asked" in problems[0].message


def test_field_map_renames_and_moves(tmp_path: Path) -> None:
    raw = {"qid": 7, "meta": {"intent": "population of Springfield, Illinois in 2020"},
           "blurred_query": "population of Springfield",
           "golden": {"nuggets": [{"nid": "n1", "nugget": "114,394 people", "weight": 3, "evidence_ids": ["a"]}]}}
    fmap = parse_field_map(["id=qid,fused_query=meta.intent", "gold=golden", "gold.nuggets.text=nugget",
                            "gold.nuggets.id=nid"])
    inst = load_records(write_jsonl(tmp_path / "c.jsonl", [raw]), CtsInstance, fmap)[0]
    assert inst.id == "7" and inst.fused_query.endswith("2020")
    assert inst.gold is not None and inst.gold.nuggets[0].text == "114,394 people" and inst.gold.nuggets[0].id == "n1"


def test_unmapped_field_error_mentions_source(tmp_path: Path) -> None:
    raw = {"qid": 1, "blurred_query": "x"}
    problems = validate_file(write_jsonl(tmp_path / "c.jsonl", [raw]), CtsInstance, {"id": "qid", "fused_query": "intent"})
    assert [p.field for p in problems] == ["fused_query"]
    assert "mapped from 'intent'" in problems[0].message


def test_json_array_files_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "docs.json"
    path.write_text(json.dumps({"docs": [{"id": "a", "text": "hello"}, {"id": "b", "text": ""}]}))
    problems = validate_file(path, CorpusDoc)
    assert len(problems) == 1 and problems[0].line == 2 and problems[0].field == "text"
    assert validate_file(tmp_path / "nope.jsonl", CorpusDoc)[0].message == "file not found"


def test_nugget_weight_must_be_1_to_3(tmp_path: Path) -> None:
    raw = {"id": "x", "fused_query": "a", "blurred_query": "b",
           "gold": {"nuggets": [{"id": "n1", "text": "t", "weight": 5}]}}
    problems = validate_file(write_jsonl(tmp_path / "c.jsonl", [raw]), CtsInstance)
    assert problems[0].field == "gold.nuggets.0.weight"


def test_chinese_fixtures_are_valid() -> None:
    assert not validate_file(ZH / "cts.jsonl", CtsInstance)
    assert not validate_file(ZH / "disco.jsonl", DiscoSample)
    assert not validate_file(ZH / "corpus.jsonl", CorpusDoc)


def test_cli_validate_reports_every_problem_with_location(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from clarisearch.cli.main import app

    bad = json.loads(json.dumps(DISCO))
    bad["checkpoints"][0]["type"] = "maybe"
    path = write_jsonl(tmp_path / "d.jsonl", [DISCO, bad, "[1, 2]"])
    result = CliRunner().invoke(app, ["data", "validate", str(path), "--kind", "disco"])
    assert result.exit_code == 1
    assert f"{path}:2: field 'checkpoints.0.type'" in result.output.replace("\n", "")
    assert f"{path}:3:" in result.output and "2 problem(s)" in result.output
    ok = CliRunner().invoke(app, ["data", "validate", "demo", "--kind", "cts"])
    assert ok.exit_code == 0 and "valid cts record(s)" in ok.output


def test_multi_value_options_expand_only_matching_words() -> None:
    from clarisearch.cli.common import expand_multi_value_options as expand

    assert expand(["run", "cts", "--k", "1", "2", "3", "--limit", "5"]) == \
        ["run", "cts", "--k", "1", "--k", "2", "--k", "3", "--limit", "5"]
    assert expand(["data", "validate", "--field-map", "id=qid", "text=body", "f.jsonl", "--kind", "cts"]) == \
        ["data", "validate", "--field-map", "id=qid", "--field-map", "text=body", "f.jsonl", "--kind", "cts"]
    assert expand(["run", "cts", "--mode", "batch", "adaptive"]) == ["run", "cts", "--mode", "batch", "--mode", "adaptive"]
    assert expand(["report", "--k", "1", "run_dir"]) == ["report", "--k", "1", "run_dir"]


def test_numbers_where_text_is_expected_are_read_as_text() -> None:
    sample = DiscoSample.model_validate({"id": 5, "question": "q", "final_answer": 1966, "checkpoints": [
        {"id": 1, "sub_question": "s", "type": "unambi", "answer": 1966, "answer_aliases": [1966.0]}]})
    assert (sample.id, sample.final_answer, sample.checkpoints[0].id) == ("5", "1966", "1")
    doc = CorpusDoc.model_validate({"id": 12, "text": "t"})
    assert doc.id == "12"
