"""`printkit check` lays out each distinct card once: the faces it lays out to prove the build
also give the spec's warnings (laying every card out twice made it slower than a build)."""

from __future__ import annotations

from pathlib import Path

from printkit.check import check_buildable, check_spec
from printkit.decks import expand_all
from printkit.layout import templates
from printkit.spec import load_spec

DECKS = Path(__file__).resolve().parent.parent / "decks"


def test_check_lays_out_no_face_beyond_what_proving_the_build_lays_out(monkeypatch):
    calls = []
    real = templates.front

    def counted(card, deck, **options):
        calls.append(card.key)
        return real(card, deck, **options)

    monkeypatch.setattr(templates, "front", counted)
    spec = DECKS / "emberfall.yaml"
    check_buildable(list(expand_all(load_spec(spec))))
    proving = len(calls)
    calls.clear()
    reports = check_spec(spec)
    assert reports and reports[0].total > 0 and proving > 0
    assert len(calls) == proving  # the spec's warnings come from the faces already laid out
