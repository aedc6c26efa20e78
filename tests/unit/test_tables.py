"""recollect_graph.tables: records as text tables and DataFrames."""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

import pytest

from recollect_graph.cli import output
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
    assert output.table is table  # the CLI's tables are these


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
