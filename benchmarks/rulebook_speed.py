"""How long setting the rulebooks takes: every spec with rule texts, each language, A4 and booklet.

Run: python benchmarks/rulebook_speed.py
"""

from __future__ import annotations

import time

from printkit.rulebook.producer import render_rulebook, rule_texts
from printkit.spec import all_spec_paths


def main() -> None:
    total = 0.0
    for spec in all_spec_paths():
        for lang in rule_texts(spec):
            for booklet in (False, True):
                start = time.perf_counter()
                book = render_rulebook(spec, lang, "a4", booklet=booklet)
                elapsed = time.perf_counter() - start
                total += elapsed
                kind = "booklet" if booklet else "a4"
                print(f"{spec.stem:8s} {lang} {kind:8s} {book.pages:3d} pages {len(book.data) / 1024:7.0f} KiB "
                      f"{elapsed:6.2f} s")
    print(f"total {total:.2f} s")


if __name__ == "__main__":
    main()
