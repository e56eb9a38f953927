"""The printkit command line: a thin shell over library functions.

Library code raises PrintkitError; only this module prints messages and chooses exit codes.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import os
import sys

import click

from printkit.errors import MAX_ERRORS, ManyErrors, OutputFailed, PrintkitError, error_lines, one_line


class _GuardedOutput:
    """A text stream whose write errors become OutputFailed, and which escapes what its encoding
    cannot show (a Korean deck on a Latin-1 terminal) rather than failing."""

    def __init__(self, stream):
        self._stream = stream
        if hasattr(stream, "reconfigure"):
            with contextlib.suppress(Exception):
                stream.reconfigure(errors="backslashreplace")

    def write(self, text):
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise OutputFailed(f"cannot write to standard output: {exc.strerror or exc}") from None

    def flush(self):
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputFailed(f"cannot write to standard output: {exc.strerror or exc}") from None

    def __getattr__(self, name):
        return getattr(self._stream, name)


class _ClosedOutput:
    """What standard output is when the process was started with it closed (``>&-``)."""

    encoding = "utf-8"

    def write(self, text):
        raise OSError(9, "standard output is closed")

    def flush(self):
        pass

    def isatty(self):
        return False


def _guard_streams() -> None:
    """Make stdout fail as a printkit error and both streams escape what they cannot encode."""
    if sys.stdout is None:
        sys.stdout = _GuardedOutput(_ClosedOutput())
    elif not isinstance(sys.stdout, _GuardedOutput):
        sys.stdout = _GuardedOutput(sys.stdout)
    if sys.stderr is not None and hasattr(sys.stderr, "reconfigure"):
        with contextlib.suppress(Exception):
            sys.stderr.reconfigure(errors="backslashreplace")


def _quiet_exit(code: int) -> None:
    """Leave without Python's own flush of a standard output that cannot be written (no traceback)."""
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    os._exit(code)


def reports_errors(func):
    """Turn a PrintkitError into one line on stderr and exit code 1 (usage errors keep click's 2)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        _guard_streams()
        try:
            result = func(*args, **kwargs)
            sys.stdout.flush()
            return result
        except OutputFailed as exc:
            with contextlib.suppress(Exception):
                click.echo(f"error: {exc}", err=True)
            _quiet_exit(1)
        except PrintkitError as exc:
            _fail(*error_lines(exc), *([f"{len(exc.errors)} errors"
                                        + (f" (the first {MAX_ERRORS}; fix them and run again)"
                                           if len(exc.errors) >= MAX_ERRORS else "")]
                                       if isinstance(exc, ManyErrors) else []))
        except OSError as exc:  # what no check foresaw (a file that went away, a full disk)
            _fail(f"error: {_os_error(exc)}")
        except RuntimeError as exc:
            if not str(exc).startswith("Symlink loop"):  # pathlib's word for a loop of links
                raise
            _fail(f"error: {str(exc).replace('Symlink loop from', 'a loop of symbolic links at')}")

    return wrapper


def _fail(*lines: str) -> None:
    try:
        for line in lines:
            click.echo(line, err=True)
        sys.stdout.flush()
    except (OSError, OutputFailed):
        _quiet_exit(1)
    sys.exit(1)


def _os_error(exc: OSError) -> str:
    """An OSError as one line: what it says of which file."""
    what = exc.strerror or str(exc)
    names = [_shown(name) for name in (exc.filename, exc.filename2) if name is not None]
    return f"{' -> '.join(names)}: {what}" if names else what


def _shown(name) -> str:
    text = os.fsdecode(name) if isinstance(name, (str, bytes, os.PathLike)) else str(name)
    return repr(text if len(text) <= 80 else text[:40] + "…" + text[-30:])


@contextlib.contextmanager
def progress_bar(length: int, label: str):
    """A progress callback for a library call: a bar on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=length, label=label, file=sys.stderr) as bar:
        yield bar.update


@contextlib.contextmanager
def cycle_collector_paused():
    """Run a build without Python's cycle collector; its survivors then go to the oldest generation.

    A build allocates hundreds of thousands of objects that live until it ends (font tables,
    faces, drawing ops) and little cyclic garbage (under a thousand objects for one deck's cards),
    so the collector's passes over them are wasted: some 5% of a card build, 7% with rulebooks.
    Freezing and unfreezing moves the survivors to the oldest generation without walking them;
    a later full collection, if the process lives on, still frees any garbage among them.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if collecting:
            gc.enable()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="printkit")
def main() -> None:
    """printkit: print-ready card sheets and rulebooks from YAML deck specs, checked by rule engines."""


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

    from printkit.check import check_specs, engine_play_check, format_report
    from printkit.spec import default_spec_paths, find_spec

    if decks:
        paths = [find_spec(name) for name in decks]
    else:
        paths, where = default_spec_paths()
        click.echo(f"checking the specs in {where}", err=True)
    with cycle_collector_paused():  # a check lays out every face, as a build does
        # Each spec's mistakes are kept; the specs without any are reported all the same.
        reports, errors = check_specs(paths, None if no_play else engine_play_check)
    if as_json:
        click.echo(json.dumps({"decks": [r.to_json() for r in reports]}, indent=2, ensure_ascii=False))
    elif reports:
        click.echo("\n\n".join(format_report(r) for r in reports))
    errors.raise_any()
    if not all(r.ok for r in reports):
        sys.exit(1)


@main.command()
@click.argument("name")
@reports_errors
def new(name: str) -> None:
    """Start a game of your own: write a small working deck into a new folder NAME.

    The folder gets NAME.yaml (the spec, with two layouts, one extending the other, and a back),
    cards.csv (the cards), a picture, an icon used in card text and NAME.rules.en.md (the
    rulebook). An existing folder must be empty; no file is overwritten.

    Example: printkit new my-game && cd my-game && printkit build
    """
    from pathlib import Path

    from printkit.starter import new_game

    here = Path.cwd()
    for path in new_game(name, here):
        click.echo(path.relative_to(here).as_posix())
    click.echo(f"next: cd {name} && printkit check && printkit build", err=True)


@main.command()
@reports_errors
def schema() -> None:
    """Print the JSON Schema of deck specs, for editors that validate and autocomplete YAML.

    Example: printkit schema > deck.schema.json
    """
    import json

    from printkit.spec.models import json_schema

    click.echo(json.dumps(json_schema(), indent=2))


def _length_mm(ctx, param, value):
    """Click callback: a length such as ``2``, ``2mm`` or ``0.1in`` in millimetres."""
    from printkit.units import parse_length_mm

    try:
        return parse_length_mm(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _offset_mm(ctx, param, value):
    """Click callback: ``X,Y`` lengths in millimetres (``0.5,-1`` or ``0.5mm,-1mm``), each within ±20 mm."""
    from printkit.units import parse_length_mm

    parts = value.split(",")
    try:
        if len(parts) != 2:
            raise ValueError(f"expected X,Y such as '0.5,-1', got {value!r}")
        offset = (parse_length_mm(parts[0]), parse_length_mm(parts[1]))
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    # Duplex printers misalign by a few millimetres; beyond this the backs would leave their cards.
    if not all(-MAX_BACK_OFFSET_MM <= v <= MAX_BACK_OFFSET_MM for v in offset):
        raise click.BadParameter(f"{value!r} moves the backs more than {MAX_BACK_OFFSET_MM:g} mm; "
                                 f"each of X and Y must lie within ±{MAX_BACK_OFFSET_MM:g} mm")
    return offset


def _gap_mm(ctx, param, value):
    """Click callback: the gap between cards, a length from 0 to 20 mm."""
    gap = _length_mm(ctx, param, value)
    if not 0 <= gap <= MAX_GAP_MM:
        raise click.BadParameter(f"{value!r} is not a gap printkit lays out: use 0 to {MAX_GAP_MM:g} mm")
    return gap


# Bounds of the sheet options (mm): wider settings only waste paper or misplace the backs.
MAX_BACK_OFFSET_MM = 20.0
MAX_GAP_MM = 20.0


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@click.option("--variant", help="Build only this variant (default: every variant of each deck).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper of the card sheets and the alignment test.")
@click.option("--out", "out_dir", type=click.Path(), default="output", show_default=True,
              help="Output folder (created if needed); nothing is written outside it.")
@click.option("--per-card", is_flag=True, help="Also write one PDF and one 300 DPI PNG per distinct card.")
@click.option("--flip", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="How the paper turns for duplex backs: over its long or its short edge.")
@click.option("--back-offset", default="0,0", show_default=True, callback=_offset_mm,
              help="Move the backs X right and Y down (mm, as seen from the front, each within ±20) "
                   "to fix duplex misalignment.")
@click.option("--gap", default="0", show_default=True, callback=_gap_mm,
              help="Space between cards on sheets (0 to 20 mm); bleed fills up to half of it.")
@click.option("--rulebook-paper", type=click.Choice(["a4", "a5", "letter"]), default=None,
              help="Page size of the rulebooks, one per deck and language (default: as --paper).")
@click.option("--booklet", is_flag=True,
              help="Also write each rulebook as a saddle-stitch booklet: A5 pages two-up on A4 "
                   "(half-Letter on Letter with --rulebook-paper letter).")
@click.option("--rulebooks/--no-rulebooks", default=True, show_default=True,
              help="Write the rulebooks; --no-rulebooks builds the card outputs only (faster).")
@click.option("--card", "cards", multiple=True, metavar="ID",
              help="Write only this card's per-card PDF and PNG (and its back), nothing else; the "
                   "deck's other per-card files stay. ID is the card's id, name or title, or its "
                   "per-card file name. Repeatable.")
@click.option("--cache/--no-cache", default=True, show_default=True,
              help="Reuse renders of unchanged cards and sheets from OUT/.printkit-cache (and store "
                   "new ones); --no-cache renders everything.")
@click.option("--proof/--no-proof", default=True, show_default=True,
              help="Write proof.html per deck: every distinct face as a thumbnail with its warnings.")
@click.option("--jobs", type=click.IntRange(1, 256), default=None, metavar="N",
              help="Worker processes for the per-card PNGs, proof pictures and rulebooks (default: "
                   "this machine's CPUs); the files are the same for any number.")
@click.option("--draft/--no-draft", default=False, show_default=True,
              help="Proof a deck before its art exists: a missing or refused picture is drawn as a "
                   "marked placeholder (with a warning), the sheets and proof page say DRAFT, and no "
                   "per-card files or rulebooks are written.")
@reports_errors
def build(decks, variant, paper, out_dir, per_card, flip, back_offset, gap, rulebook_paper, booklet,
          rulebooks, cards, cache, proof, jobs, draft) -> None:
    """Render decks into print-ready PDF sheets (and per-card files) plus manifest.json.

    DECK is a name in decks/ or a path to a spec; none means every deck (with --variant, every
    deck that has that variant). Writes duplex sheets (backs interleaved), fronts-only sheets, a
    duplex alignment test page and a rulebook PDF per deck and language (and saddle-stitch
    booklets with --booklet).

    The output folder holds what the latest build wrote: printkit's own files of a deck and kind
    this build writes that it no longer writes (an edited card's old file) are removed, and
    without --variant those of a variant that no longer exists. Its files of a kind or paper this
    build does not write (per-card files without --per-card) stay while the deck is unchanged, and
    a deck whose spec was taken out of a folder the build reads goes.

    Example: printkit build calc --variant expert --paper letter --per-card --booklet;
    printkit build emberfall --card ember-drake
    """
    from pathlib import Path

    from printkit.pipeline import replay

    # A build leaves tens of thousands of objects alive until exit (reportlab keeps a list per
    # glyph of every font it parsed). The interpreter's last collection would walk them all only
    # to free memory that exiting frees anyway; frozen objects are skipped (some 50 ms, a seventh
    # of a one-deck build). Registered once however often the command runs in one process.
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)

    if not out_dir.strip():
        raise click.BadParameter("the output folder is empty; name one, e.g. --out output", param_hint="--out")
    specs = None  # named ones are looked up by the build, which says which is missing
    if not decks:
        from printkit.locate import default_specs, spec_paths

        found = default_specs()
        click.echo(f"building the specs in {found.where}", err=True)
        if found.bundled:
            from printkit.pipeline.build import refuse_bundled_over_others

            refuse_bundled_over_others(Path(out_dir))
        specs = spec_paths(decks, found)
    # The same command with every input and output as it left them: its files are listed again
    # without reading a spec (nor importing what reads and draws them).
    command = replay.invocation(click.get_current_context().params, decks, Path(out_dir), specs)
    again = replay.listed_again(command) if command is not None else None
    if again is not None:
        _list_build(out_dir, again.warnings, again.paths, 0, again.manifest, again.notes)
        return
    from printkit.cache import picture_verdicts_kept
    from printkit.pipeline.build import build as run_build, load_decks
    from printkit.pipeline.context import BuildOptions
    from printkit.pipeline.producers import work_units
    from printkit.draft import drafting
    from printkit.interrupts import interrupts_as_keyboard
    from printkit.workers import default_jobs

    # SIGTERM stops a build as Ctrl-C does: its temporaries are removed, the manifest left as it was.
    with cycle_collector_paused(), interrupts_as_keyboard(), \
            drafting() if draft else contextlib.nullcontext(), picture_verdicts_kept(Path(out_dir), cache):
        options = BuildOptions(out_dir=Path(out_dir), paper=paper, per_card=per_card, flip=flip,
                               back_offset_mm=back_offset, gap_mm=gap, rulebook_paper=rulebook_paper,
                               booklet=booklet, rulebooks=rulebooks, cards=tuple(cards), cache=cache,
                               proof=proof, jobs=jobs or default_jobs(), draft=draft)
        options.check_draft()
        loaded = load_decks(decks, variant, paths=specs)
        with progress_bar(work_units(loaded, options), "Rendering") as progress:
            # Without --variant every variant of each deck is built: earlier files of a variant
            # that is gone are stale.
            result = run_build(loaded, options, progress=progress, command=command,
                               every_variant=variant is None)
    _list_build(out_dir, result.warnings, [e.path for e in result.entries], len(result.removed), result.manifest,
                result.notes)


def _list_build(out_dir: str, warnings, paths, removed: int, manifest, notes=()) -> None:
    """What ``build`` prints: warnings and notes (on stderr), every file written, how many, the manifest."""
    from pathlib import Path

    from printkit.plural import counted

    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    for note in notes:
        click.echo(f"note: {one_line(note)}", err=True)  # a note may quote a name from the manifest
    for path in paths:
        click.echo(str(Path(out_dir) / path))
    gone = f", {counted(removed, 'earlier file')} removed" if removed else ""
    click.echo(f"{counted(len(paths), 'file')}{gone}; manifest: {manifest}")


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@click.option("--serve", is_flag=True,
              help="Also serve the output folder on 127.0.0.1 (a free port, printed); proof pages "
                   "opened from there reload themselves after each rebuild.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="With --serve: the port (0: any free one).")
@reports_errors
def watch(decks, serve, port, variant, paper, out_dir, per_card, flip, back_offset, gap, rulebook_paper,
          booklet, rulebooks, proof, jobs, draft, **_later) -> None:
    """Build, then rebuild whenever a spec, its data, art, fonts or rule texts change. Ctrl-C stops.

    Takes the options of `printkit build`; with --draft a picture not yet drawn is a marked
    placeholder, so a deck is proofed while its art is made (its rulebooks wait for --no-draft). Watches each spec's folder (never the output folder)
    and prints one line per rebuild: what changed, how long it took, and its warnings. A spec
    with a mistake prints its error line and the watch waits for the next save.

    Example: printkit watch emberfall --no-rulebooks --serve
    """
    from pathlib import Path

    from printkit import watch as watching
    from printkit.pipeline.context import BuildOptions
    from printkit.serve import serving
    from printkit.interrupts import interrupts_as_keyboard
    from printkit.workers import default_jobs

    ctx = click.get_current_context()
    unread = [name for name in _later if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT]
    if unread:  # an option build gained that watch does not pass on yet: said, not ignored
        raise click.UsageError(f"watch does not take --{unread[0].replace('_', '-')} yet")

    options = BuildOptions(out_dir=Path(out_dir), paper=paper, per_card=per_card, flip=flip,
                           back_offset_mm=back_offset, gap_mm=gap, rulebook_paper=rulebook_paper,
                           booklet=booklet, rulebooks=rulebooks, proof=proof, jobs=jobs or default_jobs(),
                           draft=draft)
    options.check_draft()
    target = watching.target(decks)
    if target.found is not None and target.found.bundled:
        from printkit.pipeline.build import refuse_bundled_over_others

        refuse_bundled_over_others(options.out_dir)
    where = ", ".join(str(f) for f in target.folders)
    with contextlib.ExitStack() as stack:
        base = stack.enter_context(serving(options.out_dir, port, log=lambda line: click.echo(line, err=True))) \
            if serve else None
        click.echo(f"watching {where} (output: {options.out_dir}); Ctrl-C stops")
        if base:
            click.echo(f"serving {options.out_dir} at {base}")
        shown = False

        def show_proofs(outcome) -> None:
            nonlocal shown
            if shown or outcome.error is not None or not outcome.proofs:
                return
            shown = True
            for path in outcome.proofs:
                if base:
                    relative = path.relative_to(options.out_dir).as_posix()
                    click.echo(f"proof: {base}{relative}")
                else:
                    click.echo(f"proof: {path.resolve().as_uri()}")

        try:
            with interrupts_as_keyboard():
                watching.run(target, variant, options, click.echo, on_build=show_proofs)
        except KeyboardInterrupt:
            click.echo("stopped")


# watch takes every option of build (and any build gains later); read by name above.
watch.params.extend(p for p in build.params if p.name != "decks")


@main.command()
@click.argument("deck", metavar="DECK")
@click.option("--for", "target", required=True, metavar="TARGET",
              help="tgc, mpc, drivethrucards, print-shop or tts (profiles: printkit/export/profiles.yaml).")
@click.option("--variant", help="The deck's variant (default: the spec's default_variant, else its first; standard for calc).")
@click.option("--out", "out_dir", type=click.Path(), default=None,
              help="Export folder (default: output/<deck>[/<variant>]/export-<target>); nothing is written outside it.")
@click.option("--base-url", default=None,
              help="tts: the http(s):// address of the folder where you will host images/ (default: file:/// paths).")
@click.option("--crop-marks", is_flag=True, help="print-shop: crop marks in a 6 mm slug around every card.")
@click.option("--cmyk", is_flag=True,
              help="print-shop, drivethrucards: CMYK PDFs for offset on coated paper (ISO Coated v2 300%, "
                   "FOGRA39); black and grey text and lines on K alone.")
@click.option("--pdfx/--no-pdfx", default=None,
              help="print-shop, drivethrucards: PDF/X-1a:2001 files (CMYK, no transparency); "
                   "default: as the profile says (on for drivethrucards).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper of full-page components a profile keeps, and of the rulebooks (print-shop).")
@click.option("--no-rulebooks", "no_rulebooks", is_flag=True, help="print-shop: leave the deck's rulebooks out.")
@reports_errors
def export(deck, target, variant, out_dir, base_url, crop_marks, cmyk, pdfx, paper, no_rulebooks) -> None:
    """Write a folder ready to upload to a print service, or to load in Tabletop Simulator.

    DECK is a name in decks/ or a path to a spec. The folder holds the files the service takes
    (sizes, bleed, backs and copies as its profile says) and a README.txt saying what to upload
    where and how many copies of each file to order.

    Example: printkit export calc --variant expert --for tgc
    """
    from pathlib import Path

    from printkit.errors import BuildError
    from printkit.export import ExportOptions, check_colour_options, export_deck
    from printkit.export.profiles import profile
    from printkit.decks import load_deck
    from printkit.plural import counted

    if out_dir is not None and not out_dir.strip():
        raise click.BadParameter("the output folder is empty; name one or leave --out out", param_hint="--out")
    prof = profile(target)  # an unknown target fails before the deck is read
    if base_url is not None and target != "tts":
        raise BuildError("--base-url is for --for tts only")
    if base_url is not None:
        from printkit.export.tts import check_base_url

        check_base_url(base_url)  # before the deck is read
    if crop_marks and target != "print-shop":
        raise BuildError("--crop-marks is for --for print-shop only")
    check_colour_options(prof, cmyk, pdfx)
    if no_rulebooks and not profile(target).rulebook:
        raise BuildError(f"--no-rulebooks is for --for print-shop only ({target} takes no rulebook)")
    loaded = load_deck(deck, variant)
    options = ExportOptions(target=target, out_dir=Path(out_dir) if out_dir else None, base_url=base_url,
                            crop_marks=crop_marks, cmyk=cmyk, pdfx=pdfx, paper=paper, rulebooks=not no_rulebooks)
    with cycle_collector_paused():
        with progress_bar(len(loaded.all_cards()), "Exporting") as progress:
            result = export_deck(loaded, options, progress=progress)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    folder = result.manifest.parent
    click.echo(f"{folder}: {counted(len(result.entries), 'file')}; read {folder / 'README.txt'}")


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("cards", nargs=-1, type=click.UNPROCESSED, metavar="CARD...")
@reports_errors
def score(cards: tuple[str, ...]) -> None:
    """Score a Calc pay written bottom to top: each step, then the score on the last line.

    A card is a number (-1..9) then a symbol: + - x ^ (also × and *); J is the joker.
    Arithmetic is exact and has no cap: fractions print with a decimal, and large values as their
    exact form (e.g. 2·3^1458) with scientific notation.

    Example: printkit score 9- 5x 2- 1+ 8+   (prints 52 last); printkit score -1x 3^ J 7+
    """
    from printkit.games.calc.score import score_lines

    for line in score_lines(cards):
        click.echo(line)


@main.command()
@click.argument("game")
@click.option("--games", default=100, show_default=True, type=click.IntRange(1, 10_000_000), help="Number of games.")
@click.option("--players", type=int, help="Players per game (default: 4, within the game's range).")
@click.option("--seed", default=0, show_default=True, type=int, help="Game i uses seed SEED+i.")
@click.option("--bot", default="random", show_default=True,
              help="The player every seat uses: random, greedy or strong; or one per seat, repeated around "
                   "the table (strong,greedy or greedy+random+random+random).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1, 256),
              help="Worker processes; the output is the same for any number.")
@click.option("--variant", help="Deck variant (default: the spec's default_variant, else its first; standard for calc).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--no-check", is_flag=True, help="Skip the per-move invariant checks and replays (faster).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False),
              help="Also write a balance report with plots: FILE.html (self-contained) or FILE.pdf. "
                   "Needs matplotlib (pip install 'printkit[report]').")
@click.option("--compare", help="Play the same seeds under two or more settings and compare them: "
                                "mode=quick,mode=long or hook=true,hook=false or players=3,6 "
                                "(+ joins settings: players=5+hook=true,players=5+hook=false; "
                                "bots=greedy+random+random+random gives each seat its bot; remove=5x or remove=ruby+gold drops a card).")
@click.option("--remove", "remove", multiple=True, metavar="CARD",
              help="Take every copy of CARD (5x, QH, ruby+gold) out of the deck and compare with the full deck "
                   "(paired seeds). Repeat for several cards.")
@click.option("--card-impact", is_flag=True,
              help="Remove each distinct card in turn and report the change in the first player's win rate and "
                   "in game length against the full deck (paired tests, Holm-adjusted).")
@click.option("--tournament", metavar="BOTS",
              help="Play every pair of the bots (random,greedy,strong) head to head in both seatings and rank them "
                   "(one bot per entry; not with --bot).")
@click.option("--sample", type=click.IntRange(0), metavar="N",
              help="Write game N's move-by-move transcript into the report (and --json).")
@reports_errors
def simulate(game, games, players, seed, bot, jobs, variant, as_json, no_check, report_path, compare, remove,
             card_impact, tournament, sample) -> None:
    """Play seeded games with simulated players and summarise them.

    GAME is a deck name in decks/ (calc, stack, clag) or a path to a spec. The summary gives games
    finished, game length, the score distribution, win rate by seat and how games ended; unless
    --no-check, every move is checked against the engine's invariants. Exits 1 if any game broke one.
    With --report, also writes a balance report (plots of length, win rate by seat with 95 % intervals,
    scores, endings and the game's own facts); with --compare, one summary per setting and a report
    that marks the clear differences.

    --remove CARD compares the deck without CARD with the full deck; --card-impact does so for every
    distinct card; --tournament ranks bots head to head; --sample N adds game N's transcript.

    Example: printkit simulate stack --games 10000 --bot greedy --jobs 2 --compare mode=quick,mode=long --report stack.html
    """
    import json

    from printkit.games import engine_for
    from printkit.rules.play import default_players, run_games, summarise
    from printkit.decks import load_deck

    command = "printkit simulate " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["simulate"] else ""
    if sum(map(bool, (compare, remove, card_impact, tournament))) > 1:
        from printkit.errors import DeckError

        raise DeckError("--compare, --remove, --card-impact and --tournament each run their own games: "
                        "give one of them (inside --compare, write remove=CARD)")
    if tournament and click.get_current_context().get_parameter_source("bot") != click.core.ParameterSource.DEFAULT:
        from printkit.errors import DeckError

        raise DeckError("--bot does not apply to --tournament, which seats the bots it names: leave --bot out")
    if (tournament or card_impact) and sample is not None:
        from printkit.errors import DeckError

        raise DeckError("--sample shows a game of one setting: use it without --card-impact and --tournament")
    if tournament or card_impact:
        _sweep(game, games, players, seed, bot, jobs, variant, as_json, no_check, report_path, card_impact,
               tournament, command)
        return
    analyses = None
    if compare or report_path or as_json or remove or sample is not None:
        from printkit.report.data import Setting, analyse, parse_compare, play_batch

        if compare:
            settings = parse_compare(compare)
        elif remove:
            settings = [Setting("full deck"), Setting("without " + "+".join(remove), remove=tuple(remove))]
        else:
            settings = [Setting("as given")]
        batches = []
        for setting in settings:
            with progress_bar(games, f"Playing {setting.label}") as progress:
                batches.append(play_batch(game, setting, games=games, players=players, seed=seed, bot=bot,
                                          variant=variant, jobs=jobs, check=not no_check, progress=progress))
        summaries = [summarise(b.game, b.variant, b.players, b.bot, b.seed, b.results, b.length_unit)
                     for b in batches]
        analyses = [analyse(b) for b in batches]
        transcript = None
        if sample is not None:
            from printkit.report.sample import sample_game
            from printkit.report.data import setting_deck

            first = batches[0]
            transcript = sample_game(setting_deck(game, settings[0], variant), first.players, seed, games,
                                     first.bot, sample)
        if report_path:
            from pathlib import Path

            from printkit.report.render import write_report

            what = compare or (f"without {'+'.join(remove)}" if remove else "")
            title = f"{summaries[0].game} balance report" + (f": {what}" if what else "")
            write_report(Path(report_path), analyses, title, command, seed, sample=transcript)
    else:
        deck = load_deck(game, variant)
        engine = engine_for(deck.game)
        count = players if players is not None else default_players(engine)
        with progress_bar(games, "Playing") as progress:
            results = run_games(deck, games, count, seed, bot, jobs, check=not no_check, progress=progress)
        summaries = [summarise(engine.name, deck.variant, count, bot, seed, results, engine.length_unit)]
        settings = None
    if as_json:
        if analyses is None or len(analyses) == 1:
            out = summaries[0].as_dict()
            if analyses:
                out["cards"] = analyses[0]["cards"]
                out["trajectories"] = analyses[0]["trajectories"]
        else:
            out = {"compare": [dict(s.as_dict(), setting=st.label, cards=a["cards"])
                               for s, st, a in zip(summaries, settings, analyses)]}
        if sample is not None:
            out["sample"] = transcript
        click.echo(json.dumps(out, indent=2))
    else:
        blocks = []
        for i, summary in enumerate(summaries):
            head = [f"[{settings[i].label}]"] if len(summaries) > 1 else []
            blocks.append("\n".join(head + summary.lines()))
        if analyses and len(analyses) > 1:
            blocks.append("\n".join(_difference_lines(analyses)))
        if sample is not None and not report_path:  # with --report, the transcript is in the report
            from printkit.report.sample import transcript_lines

            blocks.append("\n".join(transcript_lines(transcript)))
        click.echo("\n\n".join(blocks))
    if report_path:
        click.echo(f"report: {report_path}", err=True)
    if any(summary.failures for summary in summaries):
        sys.exit(1)


def _difference_lines(analyses) -> list[str]:
    """The paired differences against the first setting as text: game length, seat 0's win rate and
    every clear one (the report has them all)."""
    from printkit.plural import counted
    from printkit.report.render import LEVEL, differences

    diffs = differences(analyses)
    out = [f"paired differences against [{analyses[0]['label']}] (same seeds; Holm-adjusted over "
           f"{counted(len(diffs), 'test')}; clear: below {LEVEL:g}):"]
    for d in diffs:
        if d.clear or d.metric in ("game length (median)", "win rate, seat 0"):
            out.append(f"{'CLEAR ' if d.clear else ''}{d.metric} [{d.other}]: {d.base_value} -> {d.other_value} "
                       f"({d.difference}; {d.test.split(' (')[0]}, Holm p {d.p_adjusted:.2g})")
    return out


def _sweep(game, games, players, seed, bot, jobs, variant, as_json, no_check, report_path, card_impact,
           tournament, command) -> None:
    """``simulate --card-impact`` and ``--tournament``: many batches, one table."""
    import json

    if card_impact:
        from printkit.report.data import Setting
        from printkit.report.impact import card_impact as sweep, impact_lines

        result = sweep(game, Setting("full deck"), games=games, players=players, seed=seed, bot=bot,
                       variant=variant, jobs=jobs, check=not no_check)
        lines = impact_lines(result)
    else:
        from printkit.report.tournament import tournament as play, tournament_lines

        result = play(game, tournament.split(","), games=games, players=players, seed=seed, variant=variant,
                      jobs=jobs, check=not no_check)
        lines = tournament_lines(result)
    click.echo(json.dumps(result, indent=2) if as_json else "\n".join(lines))
    if report_path:
        from pathlib import Path

        from printkit.report.render import write_table_report

        title = f"{result['game']} " + ("card impact" if card_impact else f"bot tournament: {tournament}")
        write_table_report(Path(report_path), result, title, command)
        click.echo(f"report: {report_path}", err=True)
