"""The review page (`easel review --html`, search/review_page.py) in a real
browser: headless Chromium renders it at a phone's and a desktop's size,
saves screenshots (to the test's tmp_path, and to $EASEL_REPORT_SCREENSHOTS
when that names a directory), and the layout is read from the DOM: the
graph fills the content width and is drawn, no part overlaps another, the
page does not scroll sideways, every flagged turn is listed."""
from __future__ import annotations

import itertools
import os
import shutil

import pytest

from easel.server.cli import main

from browser import chromium

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}

LAYOUT_JS = """() => {
  const box = e => { const r = e.getBoundingClientRect();
                     return {x: r.x, y: r.y + window.scrollY, w: r.width, h: r.height}; };
  const shown = e => getComputedStyle(e).display !== 'none';
  const blocks = [...document.querySelectorAll('h1, h2, p, svg.graph, div.scroll')]
      .filter(shown)
      .map(e => ({what: e.tagName + ' ' + (e.textContent || '').slice(0, 30), box: box(e)}));
  const svgs = [...document.querySelectorAll('svg.graph')].filter(shown);
  const svg = svgs[0];
  const label = svg.querySelector('text');
  return {blocks, graphs: svgs.length, graph: box(svg), content: document.body.clientWidth,
          labelPx: label.getBoundingClientRect().height,
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          lines: svg.querySelectorAll('polyline').length,
          rings: svg.querySelectorAll('circle[fill="none"]').length,
          flaggedRows: document.querySelectorAll('tr.inaccuracy, tr.mistake, tr.blunder').length};
}"""


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def page_file(recorded_games, tmp_path_factory):
    games = recorded_games("vangogh", ["random", "mcts(iterations=300)"], 1, 11)
    path = tmp_path_factory.mktemp("review") / "review.html"
    assert main(["review", str(games), "--game-index", "0",
                 "--html", str(path),
                 "--json"]) == 0
    return path


def _overlap(a, b) -> float:
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(w, 0) * max(h, 0)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_review_page_reads_well_in_a_browser(browser, page_file, tmp_path, size):
    w, h = SIZES[size]
    page = browser.new_page(viewport={"width": w, "height": h})
    try:
        page.goto("file://" + os.path.abspath(page_file))
        page.wait_for_load_state("load")
        shot = tmp_path / f"review-{size}.png"
        page.screenshot(path=str(shot), full_page=True)
        extra = os.environ.get("EASEL_REPORT_SCREENSHOTS")
        if extra and os.path.isdir(extra):
            shutil.copy(shot, extra)
        layout = page.evaluate(LAYOUT_JS)
    finally:
        page.close()
    assert os.path.getsize(shot) > 10_000
    assert layout["graphs"] == 1                      # the rendition for this width alone
    assert layout["labelPx"] >= 10                    # the graph's text is readable
    assert layout["lines"] == 2                       # one line per player
    assert layout["rings"] >= 1 and layout["rings"] == layout["flaggedRows"]
    assert layout["graph"]["w"] >= 0.9 * layout["content"] - 30
    assert layout["graph"]["h"] > 100
    assert layout["overflow"] <= 0, "the page scrolls sideways"
    for a, b in itertools.combinations(layout["blocks"], 2):
        assert _overlap(a["box"], b["box"]) < 1.0, f"{a['what']!r} overlaps {b['what']!r}"
