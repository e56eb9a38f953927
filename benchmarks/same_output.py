"""Proves a change leaves what printkit writes byte for byte as it was.

Builds every shipped deck twice, once from a reference commit (default ``HEAD``, checked out into a
temporary git worktree) and once from this checkout, each from its own ``decks/`` with the render
cache off, and compares every file: card sheets, alignment pages, per-card PDFs and PNGs,
rulebooks and booklets, on A4 and on Letter with A5 rulebooks. ``manifest.json`` is left out (it
names its build). Exit status 0 when every file is identical, 1 with the differing files listed.

    python3 benchmarks/same_output.py              # this checkout against HEAD
    python3 benchmarks/same_output.py --ref main~3 # against an older commit
"""

from __future__ import annotations

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

BUILDS = {
    "a4": ["--per-card", "--booklet"],
    "letter": ["--paper", "letter", "--rulebook-paper", "a5", "--booklet"],
}


def build(tree: Path, out: Path, state: Path) -> None:
    """Every shipped deck of ``tree`` built by ``tree``'s printkit into ``out/<build>``."""
    env = dict(os.environ, PYTHONPATH=str(tree), XDG_STATE_HOME=str(state))
    for name, flags in BUILDS.items():
        cmd = [sys.executable, "-m", "printkit", "build", "--out", str(out / name), "--no-cache", *flags]
        done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{tree}: {' '.join(cmd[2:])} failed:\n{done.stderr}")


def files(root: Path) -> set[str]:
    return {
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and p.name != "manifest.json" and ".printkit-cache" not in p.parts
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="HEAD", help="commit to compare against (default HEAD)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="printkit-same-") as tmp:
        tmp = Path(tmp)
        ref_tree = tmp / "ref"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(ref_tree), args.ref], cwd=REPO, check=True
        )
        try:
            build(ref_tree, tmp / "before", tmp / "state")
            build(REPO, tmp / "after", tmp / "state")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(ref_tree)], cwd=REPO, check=False)
        before, after = files(tmp / "before"), files(tmp / "after")
        differ = sorted(
            f for f in before & after if not filecmp.cmp(tmp / "before" / f, tmp / "after" / f, shallow=False)
        )
        for f in sorted(before - after):
            print(f"only before: {f}")
        for f in sorted(after - before):
            print(f"only after:  {f}")
        for f in differ:
            print(f"differs:     {f}")
        same = len(before & after) - len(differ)
        print(f"{same} of {len(before | after)} files identical to {args.ref}")
        return 0 if before == after and not differ else 1


if __name__ == "__main__":
    sys.exit(main())
