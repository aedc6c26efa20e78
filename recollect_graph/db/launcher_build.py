"""Finding Java and Maven, and building the embedded Neo4j launcher once per machine.

The launcher's ``pom.xml`` and Java source ship inside the package (``db/launcher/``). ``build``
copies them into the user's cache directory under a folder named for their content hash, runs
Maven there (jars from Maven Central) and marks the folder complete. A changed launcher gets a new
folder; an interrupted build is never mistaken for a finished one.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from recollect_graph.errors import JavaNotFound, MavenNotFound, ServerError
from recollect_graph.settings import Settings

log = logging.getLogger(__name__)

MIN_JAVA = 17
#: Neo4j 5.26 LTS supports Java 17 and 21.
MAX_TESTED_JAVA = 21
LAUNCHER_CLASS = "org.recollectgraph.launcher.Launcher"
_DOCKER_HINT = "or run Neo4j with `docker compose up -d --wait` and set NEO4J_URI"

#: JVM flags Neo4j's own neo4j.conf passes; embedded Neo4j on Java 17+ needs the --add-opens.
JVM_FLAGS: tuple[str, ...] = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+ExitOnOutOfMemoryError",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
)


@dataclass(frozen=True)
class Tool:
    """An external executable and its version."""

    path: str
    version: str
    major: int


def find_java(settings: Settings) -> Tool:
    """Locate a Java 17+ runtime: ``RECOLLECT_JAVA``, then ``$JAVA_HOME/bin/java``, then PATH.

    Raises:
        JavaNotFound: None found, or the one found is older than Java 17.
    """
    candidates: list[str] = []
    if settings.java:
        candidates.append(settings.java)
    if os.environ.get("JAVA_HOME"):
        candidates.append(str(Path(os.environ["JAVA_HOME"]) / "bin" / "java"))
    on_path = shutil.which("java")
    if on_path:
        candidates.append(on_path)
    for cand in candidates:
        path = shutil.which(cand) or (cand if os.access(cand, os.X_OK) else None)
        if not path:
            continue
        try:
            out = subprocess.run(
                [path, "-version"], capture_output=True, text=True, timeout=30, check=False
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        m = re.search(r'version "(\d+)(?:\.(\d+))?[^"]*"', out.stderr + out.stdout)
        if not m:
            continue
        major = int(m.group(1))
        if major == 1 and m.group(2):  # "1.8.0" style
            major = int(m.group(2))
        if major < MIN_JAVA:
            raise JavaNotFound(
                f"Java {major} at {path} is too old: the embedded Neo4j needs Java 17 or 21 "
                f"(apt install openjdk-17-jre-headless, then set JAVA_HOME), {_DOCKER_HINT}"
            )
        return Tool(path=path, version=m.group(0).split('"')[1], major=major)
    raise JavaNotFound(
        "Java was not found: the embedded Neo4j needs Java 17 or 21 "
        f"(apt install openjdk-17-jre-headless, or set JAVA_HOME / RECOLLECT_JAVA), {_DOCKER_HINT}"
    )


def find_maven(settings: Settings) -> Tool:
    """Locate Maven: ``RECOLLECT_MAVEN``, then ``mvn`` on PATH.

    Raises:
        MavenNotFound: Maven is not installed.
    """
    cand = settings.maven or "mvn"
    path = shutil.which(cand)
    if not path:
        raise MavenNotFound(
            "Maven (mvn) was not found: it builds the embedded Neo4j once from Maven Central "
            f"(apt install maven, or set RECOLLECT_MAVEN), {_DOCKER_HINT}"
        )
    try:
        out = subprocess.run(
            [path, "-v", "-B"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise MavenNotFound(f"Maven at {path} does not run ({e}), {_DOCKER_HINT}") from e
    m = re.search(r"Apache Maven (\d+)\.(\d+)\S*", out.stdout)
    version = m.group(0).split()[-1] if m else "unknown"
    return Tool(path=path, version=version, major=int(m.group(1)) if m else 0)


def launcher_source() -> Path:
    """Directory of the launcher's ``pom.xml`` and Java source inside the installed package."""
    return Path(str(resources.files("recollect_graph.db") / "launcher"))


def _source_files(src: Path) -> list[Path]:
    # Everything under src/ counts (Java, and the Browser guide and style it serves).
    files = [src / "pom.xml", *sorted(p for p in (src / "src").rglob("*") if p.is_file())]
    return [f for f in files if f.is_file()]


def launcher_fingerprint(src: Path | None = None) -> str:
    """Content hash of the launcher's pom and sources (names the build folder)."""
    src = src or launcher_source()
    h = hashlib.sha256()
    for f in _source_files(src):
        h.update(f.relative_to(src).as_posix().encode())
        h.update(b"\0")
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def neo4j_version_in_pom(src: Path | None = None) -> str:
    """The Neo4j version the launcher's pom pins."""
    text = ((src or launcher_source()) / "pom.xml").read_text()
    m = re.search(r"<neo4j.version>([^<]+)</neo4j.version>", text)
    return m.group(1) if m else "unknown"


class LauncherBuild:
    """The built launcher for one settings object (its cache directory)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.dir = settings.cache_dir / f"neo4j-launcher-{launcher_fingerprint()}"

    @property
    def marker(self) -> Path:
        """File written last by a successful build."""
        return self.dir / "BUILD_COMPLETE"

    def is_built(self) -> bool:
        """True when a complete build exists."""
        return self.marker.is_file()

    def classpath(self) -> str:
        """Java classpath of the built launcher."""
        return (
            f"{self.dir / 'target' / 'classes'}{os.pathsep}{self.dir / 'target' / 'dependency'}/*"
        )

    def size_bytes(self) -> int:
        """Disk used by the build (jars and classes)."""
        return sum(f.stat().st_size for f in self.dir.rglob("*") if f.is_file())

    def build(self, *, force: bool = False, progress: Callable[[str], None] | None = None) -> Path:
        """Build the launcher with Maven unless a complete build exists.

        Args:
            force: Rebuild even when a complete build exists.
            progress: Called with short status lines.

        Returns:
            The build directory.

        Raises:
            JavaNotFound: No Java 17+.
            MavenNotFound: No Maven.
            ServerError: Maven failed (the message names the log with its output).
        """
        say = progress or (lambda _msg: None)
        if self.is_built() and not force:
            return self.dir
        find_java(self.settings)
        mvn = find_maven(self.settings)
        self.settings.cache_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(
            tempfile.mkdtemp(prefix="neo4j-launcher-build-", dir=self.settings.cache_dir)
        )
        try:
            src = launcher_source()
            shutil.copy2(src / "pom.xml", staging / "pom.xml")
            shutil.copytree(src / "src", staging / "src")
            say(
                f"building the embedded Neo4j {neo4j_version_in_pom()} with Maven "
                "(first time only: downloads about 140 MB from Maven Central)"
            )
            log_file = self.settings.cache_dir / "neo4j-launcher-build.log"
            with log_file.open("w") as out:
                proc = subprocess.run(
                    [
                        mvn.path,
                        "-B",
                        "-q",
                        "package",
                        "dependency:copy-dependencies",
                        "-DincludeScope=runtime",
                    ],
                    cwd=staging,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    check=False,
                )
            if proc.returncode != 0:
                tail = log_file.read_text(errors="replace").strip().splitlines()[-5:]
                detail = next((ln for ln in tail if "ERROR" in ln), tail[-1] if tail else "")
                raise ServerError(
                    f"Maven build of the embedded Neo4j failed ({detail.strip()[:300]}); "
                    f"full output in {log_file}"
                )
            (staging / "BUILD_COMPLETE").write_text(neo4j_version_in_pom() + "\n")
            if self.dir.exists():
                shutil.rmtree(self.dir)
            staging.rename(self.dir)
            say(f"built into {self.dir}")
            return self.dir
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
