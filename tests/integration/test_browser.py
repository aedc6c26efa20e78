"""Neo4j Browser, for real: the guide, the style and the saved queries in headless Chromium.

The embedded server's launcher serves Neo4j Browser and recollect-graph's guide
(``/guides/recollect.html``, opened by the landing page) and style (``/guides/style.grass``).
The end-to-end test drives Debian's Chromium (``/usr/bin/chromium``, installed by ``.ci/run``)
with Playwright: the page loads, shows the guide, logs in, applies the style from the guide,
runs a saved query (``cypher/browser/contradictions.cypher``) with ``$scope`` set, and the
visualisation shows the contradicting entries. A screenshot is saved under the test's tmp dir.
"""

from __future__ import annotations

import html
import re
import shutil
import time
from pathlib import Path

import pytest

from recollect_graph import Recollect
from recollect_graph.db.queries import cypher
from recollect_graph.models import ServerStatus
from recollect_graph.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
BROWSER_DIR = ROOT / "cypher" / "browser"
SAVED = sorted(p.stem for p in BROWSER_DIR.glob("*.cypher"))
GUIDES = ROOT / "recollect_graph" / "db" / "launcher" / "src" / "main" / "resources" / "guides"
CHROMIUM = "/usr/bin/chromium"
#: Chromium on a closed network: no background connections, no sandbox (root in CI).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _fills() -> dict[str, str]:
    """The fill colour the style gives each label."""
    grass = (BROWSER_DIR / "style.grass").read_text()
    return {
        m.group(1): m.group(2).upper()
        for m in re.finditer(r"^node\.(\w+) \{[^}]*?\n  color: (#[0-9A-Fa-f]{6});", grass, re.M)
    }


STYLE_FILL = _fills()


def squash(text: str) -> str:
    return " ".join(text.split())


def test_the_guide_carries_every_saved_query_and_the_style() -> None:
    assert set(SAVED) >= {
        "scopes",
        "knowledge_map",
        "contradictions",
        "supersession_chains",
        "fork_tree",
        "topic_members",
        "document_retraction",
    }
    guide = squash(html.unescape((GUIDES / "recollect.html").read_text()))
    for name in SAVED:
        assert squash(cypher(f"browser/{name}").text) in guide, (
            f"cypher/browser/{name}.cypher differs from its copy in {GUIDES}/recollect.html"
        )
    assert (GUIDES / "style.grass").read_text() == (BROWSER_DIR / "style.grass").read_text(), (
        f"copy cypher/browser/style.grass to {GUIDES}/style.grass"
    )


def test_the_style_covers_every_label() -> None:
    grass = (BROWSER_DIR / "style.grass").read_text()
    for label in [
        "Entry",
        "Turn",
        "Session",
        "Claim",
        "Entity",
        "Identifier",
        "Marker",
        "Operation",
        "LinkSuggestion",
        "Reflection",
        "Document",
        "Chunk",
        "Topic",
    ]:
        assert re.search(rf"node\.{label} \{{[^}}]*caption:", grass), label


def test_saved_queries_run_on_real_data(rg: Recollect, scope_id: str) -> None:
    a = rg.remember("Kai owns the billing service.", scope_id=scope_id, owner_id="k")
    b = rg.remember("Ana owns the billing service.", scope_id=scope_id, owner_id="k")
    old = rg.remember("The frontend build uses webpack.", scope_id=scope_id, owner_id="k")
    rg.supersede(scope_id, "frontend build", "uses", "vite")
    params = {"scope": scope_id, "session": "none", "topic": "none", "document": "none"}
    got = {}
    for name in SAVED:
        q = cypher(f"browser/{name}")
        got[name] = rg.query(q.text, {k: params[k] for k in q.params})
    assert any(r["scope"] == scope_id for r in got["scopes"])
    contradicting = {r["p"][0]["id"] for r in got["contradictions"]} | {
        r["p"][-1]["id"] for r in got["contradictions"]
    }
    assert {a.id, b.id} <= contradicting
    assert any(r["p"][-1]["id"] == old.id for r in got["supersession_chains"])
    assert {r["e"]["id"] for r in got["knowledge_map"]} >= {a.id, b.id}
    assert old.id not in {r["e"]["id"] for r in got["knowledge_map"]}  # retired


def test_browser_shows_the_guide_and_a_saved_query(
    rg: Recollect,
    neo4j_server: ServerStatus,
    server_settings: Settings,
    scope_id: str,
    tmp_path: Path,
) -> None:
    assert shutil.which(CHROMIUM), "Debian's chromium is required (apt-get install chromium)"
    from playwright.sync_api import sync_playwright

    # a titled decision (its caption is the title, not the content) and an untitled problem
    rg.remember(
        "Kai owns the billing service.",
        scope_id=scope_id,
        owner_id="k",
        title="Billing owner: Kai",
        entry_type="decision",
    )
    rg.remember(
        "Ana owns the billing service.", scope_id=scope_id, owner_id="k", entry_type="problem"
    )
    url = neo4j_server.browser_url
    assert url, "the test server runs without Browser"
    password = server_settings.password_file.read_text().strip()
    query = cypher("browser/contradictions").text
    shot = tmp_path / "browser.png"

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})

            def run(command: str) -> None:
                page.click("[data-testid='activeEditor']")
                page.keyboard.insert_text(command)
                page.keyboard.press("Control+Enter")

            t0 = time.perf_counter()
            page.goto(url)
            # the landing page plays the guide and asks for the password
            page.wait_for_selector("[data-testid='carousel']", timeout=90_000)
            assert page.locator("text=apply the style").count() == 1
            page.fill("[data-testid='username']", "neo4j")
            page.fill("[data-testid='password']", password)
            page.click("[data-testid='connect']")
            page.wait_for_selector("text=You are connected as user", timeout=60_000)
            page.click("text=apply the style")
            page.wait_for_selector("text=node.Entry", timeout=30_000)
            run(f":param scope => '{scope_id}'")
            page.wait_for_selector(f"text={scope_id}", timeout=30_000)
            run(query)
            status = page.wait_for_selector("text=/Displaying \\d+ nodes/", timeout=60_000)
            assert status is not None
            m = re.search(r"Displaying (\d+) nodes, (\d+) relationships", status.inner_text())
            assert m and int(m.group(1)) >= 2 and int(m.group(2)) >= 1, status.inner_text()
            rel_types = "[data-testid='property-details-overview-relationship-type-CONTRADICTS']"
            assert page.locator(rel_types).count() == 1
            page.wait_for_timeout(2_000)  # let the force layout settle for the screenshot
            captions = " ".join(page.locator("svg g.node text").all_text_contents())
            # the caption property: the decision by its title, the problem by its content
            assert "Billing owner: Kai" in squash(captions), captions
            assert "Ana" in captions and "Kai owns" not in captions, captions
            # the entry type as a second label: listed by Browser and coloured by the style
            for label in ("Entry", "Decision", "Problem"):
                testid = f"[data-testid='property-details-overview-node-label-{label}']"
                assert page.locator(testid).count() == 1, label
            fills = {
                (c.get_attribute("fill") or "").upper()
                for c in page.locator("svg g.node circle.b-outline").all()
            }
            assert {STYLE_FILL["Decision"], STYLE_FILL["Problem"]} <= fills, fills
            page.screenshot(path=str(shot))
            print(f"browser test: {time.perf_counter() - t0:.1f} s; screenshot {shot}")
        finally:
            browser.close()
    assert shot.stat().st_size > 10_000


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chromium talks to 127.0.0.1/localhost only."""
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(var, raising=False)
