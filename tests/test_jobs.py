"""Builds with worker processes (--jobs): the same files, manifest, warnings and errors as one job."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.memo import Memo
import printkit.workers as workers
from printkit.pipeline.build import build, load_decks
from printkit.pipeline.context import BuildOptions
from printkit.cli import main
from printkit.errors import BuildError, SpecError
from printkit.rulebook.markdown import RulebookError
from printkit.spec import DECKS_DIR
from printkit.decks import load_all_variants

from manifests import without_records
from proof.decks import CALM, LOUD, many_cards, write_deck

REPO = Path(__file__).resolve().parent.parent


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (the render cache's entries too) by relative path; the manifest
    without the records that name this folder's inodes."""
    return {p.relative_to(folder).as_posix(): without_records(p.read_bytes()) if p.name == "manifest.json"
            else p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def unrecorded(entries) -> list:
    return [replace(entry, written=None) for entry in entries]


@pytest.fixture
def starts(monkeypatch) -> list[int]:
    """The number of jobs of each start of worker processes, as builds start them."""
    started: list[int] = []
    real = workers.Workers._start

    def counted(self):
        started.append(self.jobs)
        real(self)

    monkeypatch.setattr(workers.Workers, "_start", counted)
    return started


def sample_decks():
    return load_decks([str(p) for p in sorted(DECKS_DIR.glob("*.yaml"))])


def fresh_build(decks, options, monkeypatch):
    """``build``, as in a process of its own: SVG forms this process converted for an earlier build
    would not be stored in the render cache again, so the two caches could not be compared."""
    import printkit.render.svg as svg

    monkeypatch.setattr(svg, "_FORMS", Memo("svg", 256))
    return build(decks, options)


def test_the_sample_decks_build_the_same_with_two_jobs(tmp_path, starts, monkeypatch):
    one = fresh_build(sample_decks(), BuildOptions(out_dir=tmp_path / "one", per_card=True, jobs=1), monkeypatch)
    assert starts == []
    two = fresh_build(sample_decks(), BuildOptions(out_dir=tmp_path / "two", per_card=True, jobs=2), monkeypatch)
    assert starts == [2]
    assert unrecorded(two.entries) == unrecorded(one.entries)  # the manifest's entries in the order one job writes them
    assert two.warnings == one.warnings
    written = files(tmp_path / "one")
    assert sum(1 for path in written if path.endswith(".png") and "/cards/" in path) > 200
    assert files(tmp_path / "two") == written  # every output, the manifest and the cache's entries


def warning_deck(folder: Path) -> Path:
    """A deck whose cards warn (titles too long, a spread of them) and that has no rulebook."""
    return write_deck(folder, cards=many_cards(24) + (LOUD, CALM) + tuple(
        LOUD.replace("id: loud", f"id: loud{i}").replace("far too", f"{i} far too") for i in range(5)),
        expect=31)


METHODS = [m for m in ("fork", "forkserver") if m in multiprocessing.get_all_start_methods()]


@pytest.mark.parametrize("method", METHODS)
def test_warnings_said_while_workers_render_are_said_once_in_the_same_order(tmp_path, starts, monkeypatch, method):
    monkeypatch.setattr(workers, "START_MS", 0)  # workers for every build, however small
    monkeypatch.setattr(workers, "start_method", lambda: method)
    # The specs' folder apart from the outputs: a deck's record is keyed by its folder's files.
    specs = tmp_path / "specs"
    specs.mkdir()
    warning = warning_deck(specs)
    bundled = specs / "tiny.yaml"  # Calc's bundled rule texts quote cards this spec lacks
    bundled.write_text("game: calc\nname: Tiny\ncard:\n  size: poker\ngroups:\n  - name: numbers\n"
                       "    attrs: { kind: number }\n    generate:\n      symbol: [plus, minus]\n"
                       "      number: [1, 2, 3, 4, 5, 6, 7]\n", encoding="utf-8")

    def decks():
        return load_decks([str(warning), str(bundled)])

    one = fresh_build(decks(), BuildOptions(out_dir=tmp_path / "one", per_card=True, jobs=1), monkeypatch)
    assert starts == []
    two = fresh_build(decks(), BuildOptions(out_dir=tmp_path / "two", per_card=True, jobs=2), monkeypatch)
    assert starts == [2]
    assert any("does not fit" in w for w in one.warnings)
    assert any(w.startswith("tiny: no en rulebook:") for w in one.warnings)  # an error from the worker
    assert two.warnings == one.warnings
    assert unrecorded(two.entries) == unrecorded(one.entries)
    assert files(tmp_path / "two") == files(tmp_path / "one")


def test_an_error_in_a_rule_text_set_by_a_worker_is_the_same_one_line(tmp_path, starts, monkeypatch):
    from printkit import preflight

    monkeypatch.setattr(workers, "START_MS", 0)
    spec = write_deck(tmp_path)
    (tmp_path / "proofing.rules.en.md").write_text("# Proofing\n\n## Cards\n\n{{ deck.by.nothing }}\n",
                                                   encoding="utf-8")
    with pytest.raises(RulebookError) as checked:  # what the build checks before it sets any book
        build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "out0", jobs=2))
    assert starts == []
    # Left to the books' workers, the same mistake is the same line.
    monkeypatch.setattr(preflight, "check_rule_texts", lambda decks, errors, paper=None, variants=None, bundled=False: None)
    raised = []
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}"
        with pytest.raises(RulebookError) as caught:
            build(load_decks([str(spec)]), BuildOptions(out_dir=out, jobs=jobs))
        raised.append(caught.value)
        assert not out.exists()  # nothing left: no temporary, no folder the build made
    assert starts == [2]
    assert raised[1].located() == raised[0].located() == checked.value.located()
    assert "proofing.rules.en.md:5:" in raised[0].located()


def test_one_job_starts_no_process_however_much_work(tmp_path, monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("a process was started")

    monkeypatch.setattr(workers, "START_MS", 0)
    monkeypatch.setattr(workers.Workers, "_start", refused)
    monkeypatch.setattr("multiprocessing.forkserver.ensure_running", refused)
    spec = write_deck(tmp_path, cards=many_cards(20), expect=20)
    result = build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "out", per_card=True, jobs=1))
    assert sum(1 for e in result.entries if e.kind == "card-png") == 20


def test_workers_start_only_when_enough_work_waits(tmp_path, starts):
    spec = write_deck(tmp_path, cards=many_cards(40), expect=40)
    options = dict(per_card=True, rulebooks=False, proof=False, jobs=2)
    build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "one", cards=("c7",), **options))
    assert starts == []  # one card's PNG and its back's: done here
    build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "all", **options))
    assert starts == [2]  # 40 PNGs
    build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "all", **options))
    assert starts == [2]  # built again with nothing changed: nothing to render


def test_later_work_is_done_here_until_enough_of_it_waits(monkeypatch):
    monkeypatch.setattr(workers, "START_MS", 10_000)
    pool = workers.Workers(2)
    try:
        small = pool.later(100, pow, 2, 10)
        assert small.result() == 1024 and not pool.started
        kept = []
        coming = pool.later(100, pow, 3, 2).then(kept.append)
        assert kept == [] and coming.result() == 9 and kept == [9]
        assert workers.Later.ready(b"cached").then(kept.append).result() == b"cached" and kept == [9, b"cached"]
    finally:
        pool.close()


def test_shares_cover_every_page_once_in_order():
    assert workers.Workers(1).split(94) == [(0, 94)]
    shares = workers.Workers(2).split(94)
    assert len(shares) == 4 and shares[0][0] == 0 and shares[-1][1] == 94
    assert all(a[1] == b[0] and a[0] < a[1] for a, b in zip(shares, shares[1:]))
    assert workers.Workers(8).split(3) == [(0, 1), (1, 2), (2, 3)]
    assert workers.Workers(2).split(0) == [(0, 0)]


def test_located_errors_survive_the_way_back_from_a_worker():
    spec = pickle.loads(pickle.dumps(SpecError("deck.yaml", 3, 7, "unknown key 'colours'")))
    assert spec.located() == "deck.yaml:3:7: unknown key 'colours'" and spec.column == 7
    rule = pickle.loads(pickle.dumps(RulebookError("x.rules.en.md", 5, "unknown value 'a'")))
    assert str(rule) == "x.rules.en.md:5: unknown value 'a'" and rule.line == 5


def test_default_jobs_is_the_cpus_this_process_may_use():
    expected = (os.process_cpu_count() if hasattr(os, "process_cpu_count")
                else len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count())
    assert workers.default_jobs() == max(1, expected)


def test_build_and_watch_take_jobs(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr("printkit.pipeline.build.build", lambda decks, options, **kwargs: seen.append(options) or 1 / 0)
    runner = CliRunner()
    runner.invoke(main, ["build", "calc", "--jobs", "3", "--out", str(tmp_path)])
    runner.invoke(main, ["build", "calc", "--out", str(tmp_path)])
    assert [o.jobs for o in seen] == [3, workers.default_jobs()]
    assert runner.invoke(main, ["build", "calc", "--jobs", "0"]).exit_code == 2
    monkeypatch.setattr("printkit.watch.run", lambda target, variant, options, *args, **kw: seen.append(options))
    result = runner.invoke(main, ["watch", "calc", "--jobs", "2", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert seen[-1].jobs == 2


# --- Ctrl-C -------------------------------------------------------------------------------------


def session(sid: int) -> dict[int, int]:
    """The live processes of session ``sid``: pid -> parent pid (Linux's /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == sid:
            found[int(entry.name)] = int(fields[1])
    return found


def cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def parallel_build(out: Path, method: str) -> subprocess.Popen:
    """``printkit build --per-card --jobs 2`` in a process group of its own (as a terminal's job
    is), returned once its workers render and files are staged. Workers are the processes of the
    group besides the build and the helpers multiprocessing may start beside it (a fork server,
    a resource tracker): forked from the build, or from the fork server."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    # printkit's command line, with workers started as ``method`` says (fork: as a build does)
    cli = ("import sys, printkit.workers as w; method = sys.argv.pop(1); w.start_method = lambda: method; "
           "from printkit.cli import main; main()")
    proc = subprocess.Popen([sys.executable, "-c", cli, method, "build", "--per-card", "--jobs", "2", "--out", str(out)],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while True:
        family = session(proc.pid)
        helpers = {pid for pid, parent in family.items() if parent == proc.pid and "multiprocessing" in cmdline(pid)}
        working = set(family) - helpers - {proc.pid}
        if len(working) >= 2 and list(out.rglob("*.tmp")):
            return proc
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("no parallel build to interrupt")
        time.sleep(0.05)


def gone(sid: int, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while session(sid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return session(sid) == {}


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


@needs_proc
@pytest.mark.parametrize("method", METHODS)
def test_ctrl_c_during_a_parallel_build_stops_its_workers_and_leaves_nothing_behind(tmp_path, method):
    out = tmp_path / "out"
    proc = parallel_build(out, method)
    try:
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: every process of the group gets it
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode != 0
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    assert gone(proc.pid)  # workers, fork server and all
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


@needs_proc
@pytest.mark.parametrize("method", METHODS)
def test_workers_of_a_build_killed_outright_end_with_it(tmp_path, method):
    proc = parallel_build(tmp_path / "out", method)
    proc.kill()  # SIGKILL: the build cannot stop them itself
    proc.communicate(timeout=60)
    assert gone(proc.pid)


@needs_proc
@pytest.mark.skipif("forkserver" not in METHODS, reason="no fork server here")
def test_the_fork_server_forks_workers_with_ctrl_c_blocked_until_they_ignore_it():
    """A worker born while Ctrl-C is pressed must not meet Python's handler before it sets its own:
    the fork server (whose workers inherit its signal mask) runs with SIGINT blocked (SIGTERM not:
    a process must still end when terminated), and the process that started it gets its own mask
    back."""
    script = ("import signal, printkit.workers as w; from multiprocessing import forkserver\n"
              "w._context('forkserver', ())\n"
              "pid = forkserver._forkserver._forkserver_pid\n"
              "blocked = next(l for l in open(f'/proc/{pid}/status') if l.startswith('SigBlk:')).split()[1]\n"
              "print(int(blocked, 16), sorted(signal.pthread_sigmask(signal.SIG_BLOCK, set())))\n")
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    server_mask, own = result.stdout.split(maxsplit=1)
    assert int(server_mask) & (1 << (signal.SIGINT - 1))
    assert not int(server_mask) & (1 << (signal.SIGTERM - 1))
    assert own.strip() == "[]"
