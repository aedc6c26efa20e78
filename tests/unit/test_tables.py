"""recollect_graph.tables: records as text tables and DataFrames."""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

import pytest

from recollect_graph.models import Check
from recollect_graph.tables import as_row, table, to_pandas


@dataclass
class _Rec:
    id: str
    score: float


def test_table_renders_dicts_models_and_dataclasses_alike() -> None:
    want = "id  score\n--  -----\ne1  0.5  "
    assert table([{"id": "e1", "score": 0.5}]) == want
    assert table([_Rec("e1", 0.5)]) == want
    assert table([Check(name="java", status="ok", detail="17")], ["name", "status"]) == (
        "name  status\n----  ------\njava  ok    "
    )
    assert table([]) == "(no rows)"
    assert table([{"a": None, "b": {"x": 1}}]) == 'a  b       \n-  --------\n   {"x": 1}'


def test_as_row_refuses_what_is_not_a_record() -> None:
    with pytest.raises(TypeError, match="not a record"):
        as_row(3)


def test_to_pandas_names_the_extra_when_pandas_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def no_pandas(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pandas":
            raise ImportError("No module named 'pandas'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    monkeypatch.delitem(__import__("sys").modules, "pandas", raising=False)
    with pytest.raises(ImportError, match=r"recollect-graph\[notebooks\]"):
        to_pandas([{"id": "e1"}])


def test_to_pandas_makes_a_frame() -> None:
    pytest.importorskip("pandas")
    frame = to_pandas([_Rec("e1", 0.5), {"id": "e2", "score": 1.0}])
    assert list(frame.columns) == ["id", "score"] and frame["id"].tolist() == ["e1", "e2"]


def test_a_table_fits_the_width_it_is_given() -> None:
    rows = [
        {
            "id": "3f2a9b1c0d",
            "title": "We chose Vite over webpack because the dev server is faster",
        },
        {"id": "x", "title": "short"},
    ]
    plain = table(rows)
    assert len(plain.splitlines()) == 4  # one line per record when no width is given
    fitted = table(rows, width=40)
    assert all(len(line) <= 40 for line in fitted.splitlines()), fitted
    # nothing lost but the tail of a cell past three lines: the words are all there, wrapped
    assert "We chose Vite over" in fitted.replace("\n", " ").replace("  ", " ")
    assert fitted.splitlines()[-1].startswith("x ")


def test_cli_tables_follow_columns_and_stay_one_line_per_row_when_piped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from recollect_graph.cli import output

    rows = [{"id": "e1", "title": "word " * 30}]
    monkeypatch.setenv("COLUMNS", "50")
    assert max(len(line) for line in output.table(rows).splitlines()) <= 50
    monkeypatch.delenv("COLUMNS")
    # pytest captures stdout: not a terminal, so the table is left as it is
    assert output.table(rows) == table(rows)
