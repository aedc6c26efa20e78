"""Loader for the ``cypher/`` files: every statement the library runs lives in one of them.

A file starts with a comment header::

    // Purpose: what the statement does, in one or more lines.
    // Params: $scope_id, $rows (list of maps: id, content)
    // Returns: count

``Params:`` lists every ``$parameter`` the body uses (or ``none``); ``Returns:`` names the columns
(or ``nothing``). ``cypher("entries/remember")`` returns the parsed file. Files under ``schema/``
are migrations and may hold several DDL statements separated by ``;``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from recollect_graph.errors import CypherFileError

_PARAM = re.compile(r"(?<![\w$])\$([A-Za-z_][A-Za-z0-9_]*)")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`")
_LINE_COMMENT = re.compile(r"//[^\n]*")


@dataclass(frozen=True)
class CypherQuery:
    """One parsed ``.cypher`` file.

    Attributes:
        name: Path below ``cypher/`` without the suffix, e.g. ``schema/001_core``.
        text: The body (header removed).
        purpose: The header's purpose text.
        params: Parameter names the header declares.
        returns: The header's ``Returns:`` text.
    """

    name: str
    text: str
    purpose: str
    params: frozenset[str]
    returns: str

    def body_params(self) -> frozenset[str]:
        """Parameter names the body uses (string literals and comments ignored)."""
        return body_params(self.text)

    def statements(self) -> list[str]:
        """The body split into statements on ``;`` at the end of a line."""
        parts = re.split(r";\s*(?:\n|$)", self.text)
        return [p.strip() for p in parts if p.strip()]


def body_params(text: str) -> frozenset[str]:
    """``$names`` used in Cypher ``text`` outside string literals and comments."""
    stripped = _LINE_COMMENT.sub("", _STRING.sub("''", text))
    return frozenset(_PARAM.findall(stripped))


def cypher_root() -> Traversable:
    """The ``cypher/`` folder: inside the installed wheel, or at the top of a source checkout."""
    packaged = resources.files("recollect_graph") / "cypher"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "cypher"
    if checkout.is_dir():
        return checkout
    raise CypherFileError("the cypher/ folder is missing from this installation; reinstall it")


def parse(name: str, source: str) -> CypherQuery:
    """Parse a file's text into a :class:`CypherQuery`.

    Raises:
        CypherFileError: The header lacks ``Purpose:``, ``Params:`` or ``Returns:``, or the body
            uses a parameter the header does not declare (or the reverse).
    """
    header: list[str] = []
    body: list[str] = []
    in_header = True
    for line in source.splitlines():
        if in_header and line.strip().startswith("//"):
            header.append(line.strip()[2:].strip())
            continue
        if in_header and not line.strip():
            continue
        in_header = False
        body.append(line)
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for line in header:
        m = re.match(r"(Purpose|Params|Returns):\s*(.*)", line)
        if m:
            current = m.group(1).lower()
            sections[current] = [m.group(2)]
        elif current:
            sections[current].append(line)
    for key in ("purpose", "params", "returns"):
        if key not in sections:
            raise CypherFileError(f"cypher/{name}.cypher: header has no '{key.title()}:' line")
    text = "\n".join(body).strip()
    if not text:
        raise CypherFileError(f"cypher/{name}.cypher: no statement after the header")
    declared = frozenset(_PARAM.findall(" ".join(sections["params"])))
    q = CypherQuery(
        name=name,
        text=text,
        purpose=" ".join(s for s in sections["purpose"] if s).strip(),
        params=declared,
        returns=" ".join(s for s in sections["returns"] if s).strip(),
    )
    used = q.body_params()
    if used != declared:
        missing, extra = sorted(used - declared), sorted(declared - used)
        raise CypherFileError(
            f"cypher/{name}.cypher: header Params do not match the body "
            f"(undeclared: {missing}, unused: {extra})"
        )
    return q


#: Folders outside the package that serve names under a prefix (see :func:`register_root`).
_EXTRA_ROOTS: dict[str, Path] = {}


def register_root(prefix: str, folder: Path) -> None:
    """Serve ``<prefix>/<name>`` from ``folder`` instead of the package's ``cypher/``.

    Tests and benchmarks keep the statements only they run (bulk loaders, brute-force scans) in
    their own folders this way, so the wheel ships none of them.

    Raises:
        CypherFileError: ``prefix`` is not one lower-case word, or ``folder`` is not a folder.
    """
    if not re.fullmatch(r"[a-z0-9_]+", prefix):
        raise CypherFileError(f"invalid cypher root prefix {prefix!r}")
    if not folder.is_dir():
        raise CypherFileError(f"no such folder for cypher/{prefix}: {folder}")
    _EXTRA_ROOTS[prefix] = folder
    cypher.cache_clear()


@cache
def cypher(name: str) -> CypherQuery:
    """Load ``cypher/<name>.cypher`` (cached).

    Args:
        name: Path below ``cypher/`` without the suffix, e.g. ``"admin/schema_state"``.

    Raises:
        CypherFileError: No such file, or its header is wrong.
    """
    if not re.fullmatch(r"[a-z0-9_]+(/[a-z0-9_]+)*", name):
        raise CypherFileError(f"invalid cypher file name {name!r}")
    head, _, rest = name.partition("/")
    node: Traversable = cypher_root()
    parts = f"{name}.cypher".split("/")
    if rest and head in _EXTRA_ROOTS:
        node, parts = _EXTRA_ROOTS[head], f"{rest}.cypher".split("/")
    for part in parts:
        node = node / part
    if not node.is_file():
        raise CypherFileError(f"cypher/{name}.cypher does not exist")
    return parse(name, node.read_text(encoding="utf-8"))


#: Suffix of a statement's variant for Neo4j 2026+ (Cypher 25 ``SEARCH`` with in-index filters).
C25_SUFFIX = "_c25"


@cache
def has_c25_variant(name: str) -> bool:
    """True when ``cypher/<name>_c25.cypher`` exists: the statement has a Neo4j 2026+ variant."""
    if name.endswith(C25_SUFFIX) or not re.fullmatch(r"[a-z0-9_]+(/[a-z0-9_]+)*", name):
        return False
    return f"{name}{C25_SUFFIX}" in set(all_names())


def all_names() -> list[str]:
    """Every file under ``cypher/`` as a loader name, sorted."""
    out: list[str] = []

    def walk(node: Traversable, prefix: str) -> None:
        for child in node.iterdir():
            if child.is_dir():
                walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith(".cypher"):
                out.append(prefix + child.name.removesuffix(".cypher"))

    walk(cypher_root(), "")
    return sorted(out)


def migrations() -> list[CypherQuery]:
    """Schema migration files (``schema/NNN_*.cypher``) in version order."""
    names = [n for n in all_names() if re.fullmatch(r"schema/\d{3}_[a-z0-9_]+", n)]
    return [cypher(n) for n in sorted(names)]
