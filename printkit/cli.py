"""The printkit command line: a thin shell over library functions.

Library code raises PrintkitError; only this module prints messages and chooses exit codes.
"""

from __future__ import annotations

import functools
import sys

import click

from printkit.errors import PrintkitError


def reports_errors(func):
    """Turn a PrintkitError into one line on stderr and exit code 1 (usage errors keep click's 2)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except PrintkitError as exc:
            click.echo(f"error: {exc}" if not hasattr(exc, "located") else exc.located(), err=True)
            sys.exit(1)

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="printkit")
def main() -> None:
    """printkit: print-ready card sheets and rulebooks from YAML deck specs, checked by rule engines."""


def _play_check(deck):
    """The rule engine's playability check for decks whose game has an engine."""
    from printkit.rules.base import ENGINE_MODULES

    if deck.game not in ENGINE_MODULES:
        return []
    from printkit.rules.play import check_playable

    return check_playable(deck)


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@click.option("--no-play", is_flag=True, help="Only count cards; skip the rule engines' seeded games.")
@reports_errors
def check(decks: tuple[str, ...], as_json: bool, no_play: bool) -> None:
    """Expand each deck and variant, count its cards and compare with the spec's expected counts.

    DECK is a name in decks/ or a path to a spec; none means every deck. Each deck is also played
    by its rule engine (a few seeded games per player count). Exits 0 when everything matches.

    Example: printkit check calc --json
    """
    import json

    from printkit.check import check_spec, format_report
    from printkit.spec import all_spec_paths, find_spec

    paths = [find_spec(name) for name in decks] if decks else all_spec_paths()
    reports = [r for path in paths for r in check_spec(path, None if no_play else _play_check)]
    if as_json:
        click.echo(json.dumps({"decks": [r.to_json() for r in reports]}, indent=2, ensure_ascii=False))
    else:
        click.echo("\n\n".join(format_report(r) for r in reports))
    if not all(r.ok for r in reports):
        sys.exit(1)


@main.command()
@reports_errors
def schema() -> None:
    """Print the JSON Schema of deck specs, for editors that validate and autocomplete YAML.

    Example: printkit schema > deck.schema.json
    """
    import json

    from printkit.spec.models import json_schema

    click.echo(json.dumps(json_schema(), indent=2))
