"""The proof page in a real browser (headless Chromium): pictures load, warnings show, watch --serve reloads."""

from __future__ import annotations

import re
import signal
import time

import pytest

from printkit.pipeline.build import build, load_decks
from printkit.pipeline.context import BuildOptions

from .browser import Browser, dump_dom, require_chromium
from .decks import CALM, EVIL, LOUD, write_deck
from .watching import Watch

STATUS = re.compile(r'<output id="proof-status" data-images="(\d+)" data-loaded="(\d+)" data-broken="(\d+)"')


def test_from_the_file_system_every_picture_loads_and_the_warning_shows(tmp_path):
    require_chromium()
    spec = write_deck(tmp_path)
    build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "out", rulebooks=False))
    page = tmp_path / "out/proofing/proof.html"
    dom = dump_dom(page.as_uri())
    images, loaded, broken = map(int, STATUS.search(dom).groups())
    assert (images, loaded, broken) == (4, 4, 0)
    loud = re.search(r'<figure id="002-[^"]*" class="has-warn"[^>]*>(.*?)</figure>', dom, re.S)
    assert loud, "the card whose title does not fit is not marked"
    assert 'class="badge"' in loud.group(1) and "does not fit" in loud.group(1)
    assert dom.count('class="has-warn"') == 1
    assert "alert(" not in re.sub(r"&lt;script&gt;alert\(1\)|onerror=alert\(2\)", "", dom.split("<script>")[0])


def test_a_missing_picture_is_counted_and_marked(tmp_path, monkeypatch):
    import printkit.proof

    require_chromium()
    monkeypatch.setattr(printkit.proof, "SHEET_PIXELS", 1)  # a contact sheet per face
    spec = write_deck(tmp_path, cards=(CALM,), expect=1)
    build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "out", rulebooks=False))
    (tmp_path / "out/proofing/proof/faces-1.png").unlink()
    dom = dump_dom((tmp_path / "out/proofing/proof.html").as_uri())
    assert tuple(map(int, STATUS.search(dom).groups())) == (2, 1, 1)
    assert re.search(r'<figure id="001-spells-calm"[^>]*class="[^"]*broken', dom)


def test_under_watch_serve_the_page_follows_every_save(tmp_path):
    require_chromium()
    spec = write_deck(tmp_path, cards=(CALM,), expect=1)
    with Watch(str(spec), "--out", "out", "--no-rulebooks", "--serve", cwd=tmp_path) as watch:
        url = watch.expect(r"^proof: http://127\.0\.0\.1:\d+/proofing/proof\.html$", 90).split(" ", 1)[1]
        with Browser(url) as browser:
            browser.wait_for("document.getElementById('proof-status').getAttribute('data-loaded') === '2'")
            assert browser.evaluate("document.querySelectorAll('figure.has-warn').length") == 0
            write_deck(tmp_path, cards=(CALM, LOUD, EVIL), expect=3)
            saved = time.monotonic()
            watch.expect(r"proofing\.yaml changed: rebuilt")
            browser.wait_for("document.querySelectorAll('figure.has-warn').length === 1", timeout=10)
            took = time.monotonic() - saved
            assert took < 8, f"the page showed the save after {took:.1f} s"
            browser.wait_for("document.getElementById('proof-status').getAttribute('data-loaded') === '4'")
            assert "A title far too long" in browser.evaluate("document.body.innerText")
            # A bad save leaves the last good page up; the next good one shows.
            spec.write_text(spec.read_text() + "groups: [\n", encoding="utf-8")
            watch.expect(r"waiting for the next save")
            time.sleep(1.5)
            assert browser.evaluate("document.querySelectorAll('figure').length") == 4
            write_deck(tmp_path, cards=(CALM,), expect=1)
            browser.wait_for("document.querySelectorAll('figure').length === 2", timeout=10)
        assert watch.stop(signal.SIGTERM) == 0


def test_a_deck_of_one_card_with_one_warning_is_counted_in_the_singular(tmp_path):
    require_chromium()
    spec = write_deck(tmp_path, cards=(LOUD,), expect=1)
    build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "out", rulebooks=False))
    dom = dump_dom((tmp_path / "out/proofing/proof.html").as_uri())
    said = [re.sub(r"<[^>]+>", "", line) for line in re.findall(r'<p class="sum">(.*?)</p>', dom)]
    assert said == ["1 card, expected 1: counts as expected", "1 distinct front, 1 back; 1 warning on 1 face"]
    assert 'class="badge" title="1 warning"' in dom
