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

from recollect_graph.errors import ConfigError, JavaNotFound, MavenNotFound, ServerError
from recollect_graph.settings import Settings

log = logging.getLogger(__name__)

#: The Neo4j the embedded default runs (Maven Central's newest 2026 release that starts cleanly;
#: 2026.08.0 was withdrawn). docker-compose.yml pins the same version: this is the one constant.
NEO4J_VERSION = "2026.08.1"
#: The LTS fallback (``RECOLLECT_NEO4J_VERSION=5.26.30``), on Java 17; CI runs it too.
NEO4J_LTS_VERSION = "5.26.30"
#: Oldest Java any supported Neo4j runs on (5.26 LTS).
MIN_JAVA = 17
#: Newest Java Neo4j 5.26 LTS supports (17 and 21).
MAX_TESTED_JAVA = 21
LAUNCHER_CLASS = "org.recollectgraph.launcher.Launcher"
_DOCKER_HINT = "or run Neo4j with `docker compose up -d --wait` and set NEO4J_URI"
_VERSION_RE = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")

#: Folders whose sub-folders are JDKs (Debian/Ubuntu, Fedora/RHEL, macOS, SDKMAN, manual installs).
JVM_DIRS: tuple[str, ...] = (
    "/usr/lib/jvm",
    "/usr/lib64/jvm",
    "/usr/java",
    "/opt/java",
    "/opt/jdk",
    "/Library/Java/JavaVirtualMachines",
    "~/.sdkman/candidates/java",
    "~/.jdks",
)

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


def jvm_flags(java_major: int) -> list[str]:
    """:data:`JVM_FLAGS` plus what a newer Java needs or offers.

    Java 21+: Lucene's SIMD vector code (``jdk.incubator.vector``), which the vector indexes use.
    Java 24+: allow the ``sun.misc.Unsafe`` memory access Netty and Neo4j still use (Java 24 warns
    on every start otherwise).
    """
    flags = list(JVM_FLAGS)
    if java_major >= 21:
        flags.append("--add-modules=jdk.incubator.vector")
    if java_major >= 24:
        flags.append("--sun-misc-unsafe-memory-access=allow")
    return flags


def parse_neo4j_version(version: str) -> tuple[int, int, int]:
    """``"2026.08.1"`` -> ``(2026, 8, 1)``.

    Raises:
        ConfigError: Not three dot-separated numbers.
    """
    m = _VERSION_RE.match(version.strip())
    if not m:
        raise ConfigError(
            f"invalid Neo4j version {version!r}: expected X.Y.Z, e.g. {NEO4J_VERSION} or "
            f"{NEO4J_LTS_VERSION} (RECOLLECT_NEO4J_VERSION)"
        )
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def embedded_version(settings: Settings) -> str:
    """The Neo4j version the embedded server runs: ``RECOLLECT_NEO4J_VERSION`` or the default.

    Raises:
        ConfigError: The setting is not a version this launcher can build (5.26.x or 2025+).
    """
    version = (settings.neo4j_version or NEO4J_VERSION).strip()
    major, minor, _ = parse_neo4j_version(version)
    if not (major >= 2025 or (major == 5 and minor == 26)):
        raise ConfigError(
            f"Neo4j {version} is not supported by the embedded launcher: use {NEO4J_VERSION} "
            f"(the default) or the {NEO4J_LTS_VERSION} LTS (RECOLLECT_NEO4J_VERSION)"
        )
    return version


def java_range(neo4j_version: str) -> tuple[int, int | None]:
    """The Java majors a Neo4j version runs on: ``(min, max)``, max None when open-ended.

    5.26 LTS: Java 17 to 21. 2025.01 and later: Java 21 or newer (25 from 2025.10).
    """
    major, _, _ = parse_neo4j_version(neo4j_version)
    if major >= 2025:
        return 21, None
    return MIN_JAVA, MAX_TESTED_JAVA


@dataclass(frozen=True)
class Tool:
    """An external executable and its version.

    Attributes:
        path: The executable.
        version: Its version string (``25.0.1``).
        major: Its major version.
        source: Where it was found (``RECOLLECT_JAVA``, ``JAVA_HOME``, ``PATH``, a JVM folder).
    """

    path: str
    version: str
    major: int
    source: str = ""


def _major_of(version: str) -> int:
    parts = re.findall(r"\d+", version)
    if not parts:
        return 0
    if parts[0] == "1" and len(parts) > 1:  # "1.8.0" style
        return int(parts[1])
    return int(parts[0])


def java_version(path: str) -> str | None:
    """The version of the Java at ``path``: from the JDK's ``release`` file, else ``-version``."""
    home = Path(os.path.realpath(path)).parent.parent
    release = home / "release"
    if release.is_file():
        m = re.search(r'^JAVA_VERSION="([^"]+)"', release.read_text(errors="replace"), re.M)
        if m:
            return m.group(1)
    try:
        out = subprocess.run(
            [path, "-version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r'version "([^"]+)"', out.stderr + out.stdout)
    return m.group(1) if m else None


def _candidates(settings: Settings) -> list[tuple[str, str, bool]]:
    """(java executable, where it came from, explicit) in the order they are considered."""
    out: list[tuple[str, str, bool]] = []
    if settings.java:
        out.append((settings.java, "RECOLLECT_JAVA", True))
    if os.environ.get("JAVA_HOME"):
        out.append((str(Path(os.environ["JAVA_HOME"]) / "bin" / "java"), "JAVA_HOME", False))
    on_path = shutil.which("java")
    if on_path:
        out.append((on_path, "PATH", False))
    for folder in JVM_DIRS:
        base = Path(folder).expanduser()
        if not base.is_dir():
            continue
        for home in sorted(base.iterdir()):
            for exe in (home / "bin" / "java", home / "Contents" / "Home" / "bin" / "java"):
                if exe.is_file() and os.access(exe, os.X_OK):
                    out.append((str(exe), str(base), False))
    return out


def find_java(settings: Settings, neo4j_version: str | None = None) -> Tool:
    """Find a Java that runs ``neo4j_version`` (default: the embedded version of ``settings``).

    Order: ``RECOLLECT_JAVA`` (used as given: refused when it does not fit), ``$JAVA_HOME``
    when it fits, then the newest fitting Java among ``java`` on PATH and the JDKs in the usual
    JVM folders (:data:`JVM_DIRS`).

    Raises:
        JavaNotFound: None fits; the message lists what was found and what to install.
    """
    version = neo4j_version or embedded_version(settings)
    lo, hi = java_range(version)
    want = f"Java {lo}+" if hi is None else f"Java {lo} to {hi}"
    found: list[Tool] = []
    seen: set[str] = set()
    best: Tool | None = None
    for cand, source, explicit in _candidates(settings):
        path = shutil.which(cand) or (cand if os.access(cand, os.X_OK) else None)
        if not path:
            if explicit:
                raise JavaNotFound(f"RECOLLECT_JAVA={cand} is not an executable Java")
            continue
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        v = java_version(path)
        if v is None:
            if explicit:
                raise JavaNotFound(f"RECOLLECT_JAVA={cand} does not say its version")
            continue
        tool = Tool(path=path, version=v, major=_major_of(v), source=source)
        fits = tool.major >= lo and (hi is None or tool.major <= hi)
        if explicit and not fits:
            raise JavaNotFound(
                f"RECOLLECT_JAVA={cand} is Java {tool.major}, but Neo4j {version} needs "
                f"{want}: {_install_hint(version)}"
            )
        if fits and (explicit or source == "JAVA_HOME"):
            return tool
        found.append(tool)
        if fits and (best is None or tool.major > best.major):
            best = tool
    if best is not None:
        return best
    if found:
        seen_txt = ", ".join(f"Java {t.major} at {t.path}" for t in found[:4])
        raise JavaNotFound(
            f"no Java here fits Neo4j {version}, which needs {want} (found {seen_txt}): "
            f"{_install_hint(version)}"
        )
    raise JavaNotFound(
        f"Java was not found: Neo4j {version} needs {want}: {_install_hint(version)}"
    )


def _install_hint(version: str) -> str:
    lo, _ = java_range(version)
    if lo >= 21:
        return (
            "install a JDK 21 or 25 (Temurin from https://adoptium.net, or your system's "
            "openjdk-21/25 package) and set RECOLLECT_JAVA or JAVA_HOME to it, or run the "
            f"Java 17 LTS fallback with RECOLLECT_NEO4J_VERSION={NEO4J_LTS_VERSION}, {_DOCKER_HINT}"
        )
    return (
        "install Java 17 or 21 (apt install openjdk-17-jre-headless), or set JAVA_HOME / "
        f"RECOLLECT_JAVA, {_DOCKER_HINT}"
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
    """The built launcher for one settings object: its Neo4j version and cache directory.

    Each Neo4j version is built into its own folder (``neo4j-launcher-<hash>-<version>``), so
    the 2026 default and the 5.26 LTS fallback live side by side.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.version = embedded_version(settings)
        self.dir = settings.cache_dir / f"neo4j-launcher-{launcher_fingerprint()}-{self.version}"

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
            JavaNotFound: No Java fits this Neo4j version.
            MavenNotFound: No Maven.
            ServerError: Maven failed (the message names the log with its output).
        """
        say = progress or (lambda _msg: None)
        if self.is_built() and not force:
            return self.dir
        java = find_java(self.settings, self.version)
        mvn = find_maven(self.settings)
        lo, _ = java_range(self.version)
        env = dict(os.environ)
        env["JAVA_HOME"] = str(Path(os.path.realpath(java.path)).parent.parent)
        self.settings.cache_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(
            tempfile.mkdtemp(prefix="neo4j-launcher-build-", dir=self.settings.cache_dir)
        )
        try:
            src = launcher_source()
            shutil.copy2(src / "pom.xml", staging / "pom.xml")
            shutil.copytree(src / "src", staging / "src")
            say(
                f"building the embedded Neo4j {self.version} with Maven on Java {java.version} "
                f"({java.path}; first time only: downloads about 140 MB from Maven Central)"
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
                        f"-Dneo4j.version={self.version}",
                        f"-Dmaven.compiler.release={lo}",
                    ],
                    cwd=staging,
                    env=env,
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
            (staging / "BUILD_COMPLETE").write_text(self.version + "\n")
            if self.dir.exists():
                shutil.rmtree(self.dir)
            staging.rename(self.dir)
            say(f"built into {self.dir}")
            return self.dir
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
