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
