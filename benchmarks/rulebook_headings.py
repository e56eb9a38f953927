"""CPU time to set a rule text of many headings (a long contents over many pages), as a build sets it.

Run: python benchmarks/rulebook_headings.py [COUNT ...]   (default 10000)

The text is ``# T`` and COUNT ``## Heading i`` sections of 0–4 sentences, set on A5 with its
contents, as the time-linearity test in tests/rulebook/test_book.py makes it. The cycle collector
is paused as ``printkit build`` pauses it.
"""

from __future__ import annotations

import sys
import time

from printkit.cli import cycle_collector_paused
from printkit.rulebook import book
from printkit.rulebook import markdown as md


def headings_text(count: int) -> str:
    return "# T\n\n" + "".join(f"## Heading {i}\n\n" + ("Some text. " * (i % 5)) + "\n\n" for i in range(count))


def main(counts: list[int]) -> None:
    with open("/proc/loadavg") as f:
        print("load average", " ".join(f.read().split()[:3]))
    for count in counts:
        start = time.process_time()
        with cycle_collector_paused():
            doc = md.parse(headings_text(count), "t.md")
            data, pages = book.render(doc, "en", lambda block: None, lambda fig, width: None, book.paper("a5"),
                                      compact=False)
        print(f"{count:6d} headings {pages:5d} pages {len(data) / 1024:7.0f} KiB "
              f"{time.process_time() - start:6.2f} s CPU")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10000])
