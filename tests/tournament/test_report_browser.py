"""report.html in a real browser (issue #27, defect 13): headless Chromium
renders the reports of small tournaments at a desktop's and a phone's size,
saves screenshots, and the page's layout is read from its DOM: charts that
do not overlap and fill the content width, no duplicate table, no empty
chart, readable heatmap numbers, pair figures whose signs agree, the
seconds per decision.

The browser is Debian's /usr/bin/chromium driven by Playwright (never its
own download); .ci/run installs it. Screenshots go to the test's tmp_path,
and also to $EASEL_REPORT_SCREENSHOTS when that names a directory.
"""
from __future__ import annotations

import itertools
import math
import os
import re
import shutil

import pytest

from easel.search.tournament import config as config_mod
from easel.search.tournament import runner

from browser import chromium
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}

TOURNAMENTS = {
    # one game string: the overall ratings are that game's, shown once
    "one-game": {"name": "one game", "seed": 1, "games": ["connect_four"],
                 "format": "head-to-head", "bots": {"heuristic": "heuristic", "random": "random"},
                 "games_per_field": 6, "report": {"bootstrap": 20}},
    # several bots and games, a faulty one (forfeits), an SPRT
    "forfeits": {"name": "several bots with forfeits", "seed": 4,
                 "games": ["connect_four", "pig(winscore=30)"],
                 "bots": {"h": "heuristic", "r": "random", "g": "greedy(budget=20)",
                          "f": "faulty(mode=raise,after=4)"},
                 "games_per_field": 8, "sprt": {"elo0": 0, "elo1": 100},
                 "report": {"bootstrap": 20}},
    # three players, every game ends normally
    "no-forfeits": {"name": "three players, no forfeits", "seed": 1,
                    "games": ["vangogh(players=3)"], "games_per_field": 12,
                    "bots": {"a": "heuristic", "b": "random", "c": "greedy(budget=10)"},
                    "report": {"bootstrap": 5}},
}


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    out = {}
    for name, data in TOURNAMENTS.items():
        where = str(tmp_path_factory.mktemp(name))
        cfg, journal = runner.open_run(config_mod.parse(data), where, resume=False)
        try:
            runner.finish(cfg, journal, where, runner.run(cfg, journal, jobs=1), report=True)
        finally:
            journal.close()
        out[name] = os.path.join(where, "report.html")
    return out


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


# What the page shows, read in the browser: boxes in CSS pixels, computed colours.
LAYOUT_JS = """() => {
  const box = e => { const r = e.getBoundingClientRect();
                     return {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}; };
  const body = document.body, cs = getComputedStyle(body);
  const content = body.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const imgs = [...document.querySelectorAll('figure img')].map(i => ({
      box: box(i), natural: i.naturalWidth, alt: i.alt,
      section: i.closest('figure').id}));
  const blocks = [...document.querySelectorAll('h1, h2, h3, body > p, figure img, div.scroll')]
      .map(e => ({what: e.tagName + (e.id ? '#' + e.id : '') + ' ' +
                        (e.alt || e.textContent).slice(0, 40), box: box(e)}));
  const tables = [...document.querySelectorAll('table')].map(t => t.innerText);
  const heat = [...document.querySelectorAll('table.heatmap td')]
      .filter(td => !td.classList.contains('none'))
      .map(td => ({fg: getComputedStyle(td).color, bg: getComputedStyle(td).backgroundColor,
                   text: td.innerText}));
  const pairs = [...document.querySelectorAll('table.pairs tr')].slice(1)
      .map(tr => [...tr.cells].map(c => c.innerText));
  const pairHead = [...document.querySelectorAll('table.pairs th')].map(c => c.innerText);
  return {content, imgs, blocks, tables, heat, pairs, pairHead,
          overflow: document.documentElement.scrollWidth - innerWidth,
          absent: [...document.querySelectorAll('.absent')].map(p => p.id),
          text: body.innerText};
}"""


def _rgb(css: str):
    return [int(x) / 255 for x in re.findall(r"\d+", css)[:3]]


def _contrast(a, b) -> float:
    def lum(rgb):
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted([lum(a), lum(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _elo(text: str) -> float:
    return {"+inf": math.inf, "-inf": -math.inf}.get(text.strip(), None) or float(text)


def _overlap(a, b) -> float:
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(w, 0) * max(h, 0)


def _look(browser, path, size, shots, name):
    w, h = SIZES[size]
    page = browser.new_page(viewport={"width": w, "height": h})
    try:
        page.goto("file://" + os.path.abspath(path))
        page.wait_for_load_state("load")
        shot = os.path.join(shots, f"{name}-{size}.png")
        page.screenshot(path=shot, full_page=True)
        extra = os.environ.get("EASEL_REPORT_SCREENSHOTS")
        if extra and os.path.isdir(extra):
            shutil.copy(shot, extra)
        return page.evaluate(LAYOUT_JS)
    finally:
        page.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", list(TOURNAMENTS))
def test_the_report_reads_well_in_a_browser(browser, reports, tmp_path, name, size):
    page = _look(browser, reports[name], size, str(tmp_path), name)
    assert os.path.getsize(tmp_path / f"{name}-{size}.png") > 10_000

    # nothing overlaps: headings, paragraphs, charts, table boxes
    for a, b in itertools.combinations(page["blocks"], 2):
        assert _overlap(a["box"], b["box"]) < 1.0, f"{a['what']!r} overlaps {b['what']!r}"
    assert page["overflow"] <= 0, "the page scrolls sideways (a table or chart too wide)"

    # every chart fills the content width, drawn for that width (not scaled up)
    assert page["imgs"]
    for img in page["imgs"]:
        assert img["box"]["w"] >= 0.95 * page["content"], img["alt"]
        assert img["natural"] >= 0.6 * img["box"]["w"], f"{img['alt']}: a small image blown up"
        assert (img["natural"] <= 600) == (size == "phone"), f"{img['alt']}: wrong rendition"

    # no table twice; with one game string, one ratings table (not "all games" and its twin)
    assert len(page["tables"]) == len(set(page["tables"])), "a table is shown twice"
    ratings = [t for t in page["tables"] if t.startswith("bot\tElo\tlow\thigh\tgames")]
    games = len(TOURNAMENTS[name]["games"])
    assert len(ratings) == (1 if games == 1 else 1 + games)

    # no empty chart: nothing to draw is said, not drawn
    alts = [i["alt"] for i in page["imgs"]]
    forfeits = name == "forfeits"
    assert ("plot-faults-absent" not in page["absent"]) == forfeits
    assert any("forfeits by bot" in a for a in alts) == forfeits
    if name == "one-game":       # every seat term is exactly 0: only the win shares are drawn
        assert [a for a in alts if "by seat" in a] == [
            "Seat advantage: connect_four: win share by seat"]

    # the heatmap's numbers contrast with their cells (WCAG AA: 4.5:1)
    assert page["heat"]
    for cell in page["heat"]:
        assert _contrast(_rgb(cell["fg"]), _rgb(cell["bg"])) >= 4.5, cell

    # each pair's score, Elo, interval and LOS agree in sign
    assert page["pairHead"][3:7] == ["score", "Elo", "interval", "LOS"]
    for row in page["pairs"]:
        score, elo, (low, high), los = (float(row[3]), _elo(row[4]),
                                        map(_elo, row[5].split("..")),
                                        float(row[6].rstrip("%")))
        assert (score > 0.5) == (elo > 0) and (score < 0.5) == (elo < 0), row
        assert low <= elo <= high, row
        if low > 0:
            assert los > 97.5, row
        elif high < 0:
            assert los < 2.5, row
        else:
            assert 2.5 <= los <= 97.5, row

    # the timing says how long a decision took, for every bot
    assert "seconds per decision" in page["text"]
    for bot in TOURNAMENTS[name]["bots"]:
        assert any(t.startswith("bot\tseconds per decision") and f"\n{bot}\t" in t
                   for t in page["tables"]), bot
