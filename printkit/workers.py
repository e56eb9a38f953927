"""Worker processes for the work of a build that is a pure function of what it is handed.

With ``jobs`` above 1, a build hands these to worker processes: each per-card PNG (PDFium
rasterising the per-card PDF, then zlib), the proof page's thumbnails (a share of the pages of
the deck's proof PDF each) and each spec's rulebooks. Everything else stays in the build's own
process: laying out faces, drawing every PDF, the render cache (only its misses are handed out),
the warnings, and writing every file in the order one job writes them. Workers only compute and
return bytes, so the output, the manifest and the warnings are the same for any ``jobs``.

Work is handed out as a :class:`Later`, a result to come. With one job nothing is ever started:
a Later is computed where its result is first asked for. With more, Laters wait until
:data:`START_MS` of work (by the rough costs below) is waiting at once, and only then are the
workers started; a result asked for before that is computed here, so a small build (one card's
files, a rebuild from the cache) starts no process.

How workers start (:func:`start_method`): a build whose process runs no other thread, on Linux,
forks them from itself once it has imported :data:`PRELOAD`, so they start in milliseconds with
everything it has loaded. A process with threads (``printkit watch`` runs the file watcher and
the HTTP server) must not fork: the copy would inherit locks that other threads hold and that no
one would release. Its workers come from a fork server (started once per process, it imports
:data:`PRELOAD` once and forks each worker from itself), or, where there is none (Windows), are
spawned. Like any multiprocessing, a script that builds with ``jobs`` above 1 keeps its own work
under ``if __name__ == "__main__":``, as spawned and fork-server workers import the main module.

Workers ignore Ctrl-C, which the terminal sends to the whole process group: the build handles it,
stops them (:meth:`Workers.stop`) and removes its temporaries.
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import threading
from typing import Any, Callable

from printkit.errors import BuildError

# What a unit of work costs on the reference machine (ms of CPU): only for deciding when workers
# are worth starting, so rough figures do.
PNG_MS = 16  # a 300 DPI per-card PNG
THUMBNAIL_MS = 2  # a proof thumbnail (100 DPI): PDFium's raster and the PNG, about 1.5 ms
RULEBOOKS_MS = 600  # a spec's rulebooks in its two languages
# Workers start once this much work waits at once: sixteen per-card PNGs (with two jobs, all a
# producer makes ahead of writing them: see Workers.ahead), one spec's rulebooks, 125 thumbnails
# (a proof of fewer faces costs workers more than they take off this process).
# Less does not win back what workers cost: forked, some 20 ms to the first result and each
# worker's copy of the build's memory to touch; from a fork server (once a process) 0.7 s before
# the first result and 0.5-0.8 s of CPU for the server's own Python.
START_MS = 250
# Modules the fork server imports once for all its workers: what PNGs and thumbnails need, and
# what rulebooks need (0.3 s more of the server's start, so only for a build that sets them).
PRELOAD = ("pypdfium2_raw", "printkit.render.png", "printkit.proof")
RULEBOOKS_PRELOAD = ("printkit.rulebook.producer",)


def default_jobs() -> int:
    """The CPUs this process may run on (at least 1)."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13: the CPUs usable here
    if counted is not None:
        return max(1, counted() or 1)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class Later:
    """The result of ``fn(*args)``, to come: :meth:`result` gives it (or raises what it raised)."""

    __slots__ = ("_workers", "cost_ms", "_call", "_sent", "_future", "_done", "_value", "_then")

    def __init__(self, workers: "Workers | None", cost_ms: float, fn: Callable[..., Any], args: tuple) -> None:
        self._workers, self.cost_ms, self._call = workers, cost_ms, (fn, args)
        self._sent: threading.Event | None = None  # set once handed to the workers (see Workers._send)
        self._future = None  # the workers' future, or the exception handing it over raised
        self._done, self._value = False, None
        self._then: list[Callable[[Any], None]] = []

    @classmethod
    def ready(cls, value: Any) -> "Later":
        """A Later that already has its result (a render found in the cache)."""
        later = cls(None, 0, None, ())
        later._done, later._value = True, value
        return later

    def then(self, keep: Callable[[Any], None]) -> "Later":
        """Call ``keep(result)`` in this process once the result is here (now, if it is)."""
        if self._done:
            keep(self._value)
        else:
            self._then.append(keep)
        return self

    def result(self) -> Any:
        if not self._done:
            if self._sent is not None:
                self._sent.wait()
                self._value = self._workers._outcome(self._future)
            else:
                if self._workers is not None:
                    self._workers._unqueue(self)
                fn, args = self._call
                self._value = fn(*args)
            self._done, self._call, self._future, self._sent = True, None, None, None
            for keep in self._then:
                keep(self._value)
            self._then = []
        return self._value


class Workers:
    """The worker processes of one build (none with ``jobs`` 1); close with :meth:`close` or :meth:`stop`."""

    def __init__(self, jobs: int = 1, preload: tuple[str, ...] = PRELOAD) -> None:
        self.jobs = max(1, int(jobs))
        self.preload = preload  # what workers need imported: before forking them, or by the fork server
        # How many outputs a producer lays out and draws ahead of writing them, so that the
        # workers have work while it does: none with one job (each is written as it is made).
        self.ahead = 0 if self.jobs == 1 else 16 * self.jobs
        self._queued: dict[int, Later] = {}  # waiting for the workers to start, by id
        self._queued_ms = 0.0
        self._pool = None
        self._outbox: queue.SimpleQueue | None = None  # Laters for the sending thread; None ends it
        self._sender: threading.Thread | None = None
        self._lifeline = None  # a pipe whose read end each worker watches: its write end closed, they end
        self.started = False  # whether this build started worker processes

    def later(self, cost_ms: float, fn: Callable[..., Any], *args: Any) -> Later:
        """``fn(*args)`` to come: in a worker once they run, else here when its result is asked for.

        ``fn`` is a module-level function of picklable arguments and result that reads nothing
        but its arguments (and files they name) and writes nothing; ``cost_ms`` its rough cost.
        """
        later = Later(self, cost_ms, fn, args)
        if self.jobs == 1:
            return later
        if self._pool is not None:
            self._hand_over(later)
            return later
        self._queued[id(later)] = later
        self._queued_ms += cost_ms
        if self._queued_ms >= START_MS:
            self._start()
        return later

    def split(self, count: int) -> list[tuple[int, int]]:
        """``range(count)`` cut into consecutive (start, end) shares for the workers: one with one job."""
        shares = 1 if self.jobs == 1 else min(count, 2 * self.jobs)
        if shares <= 1:
            return [(0, count)]
        bounds = [count * i // shares for i in range(shares + 1)]
        return list(zip(bounds, bounds[1:]))

    def warm(self, expected_ms: float) -> None:
        """Start the fork server now, if workers will come from one (it boots beside the build),
        when a build expects enough work for workers. Nothing with one job."""
        if self.jobs == 1 or expected_ms < START_MS or self._pool is not None:
            return
        if start_method() == "forkserver":
            _context("forkserver", self.preload)

    def close(self) -> None:
        """Wait for the workers to finish and end them (a build that succeeded has taken every result)."""
        pool, self._pool = self._pool, None
        self._queued.clear()
        if pool is not None:
            if self._outbox is not None:
                self._outbox.put(None)
                self._sender.join()
            pool.shutdown(wait=True, cancel_futures=True)
            self._end_lifeline()

    def stop(self) -> None:
        """End the workers at once, whatever they are doing (a build that failed or was interrupted)."""
        pool, self._pool = self._pool, None
        self._queued.clear()
        if pool is None:
            self._end_lifeline()
            return
        if self._outbox is not None:
            self._outbox.put(None)  # the sending thread may be starting a worker: not waited for
        # The executor has no way to end a running task; its processes are ended directly.
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            try:
                process.terminate()
            except (OSError, ValueError):
                pass
        try:
            pool.shutdown(wait=False, cancel_futures=True)
        except Exception:
            pass
        self._end_lifeline()  # and a worker started after all still ends at once
        for process in processes:
            try:
                process.join(5)
            except (OSError, ValueError, AssertionError):
                pass

    def _start(self) -> None:
        from concurrent.futures import ProcessPoolExecutor

        method = start_method()
        context = _context(method, self.preload)
        # Kept open here too: each worker (started as work comes) gets a copy of the read end; a
        # forked one also gets the write end, which it closes.
        self._lifeline = context.Pipe(duplex=False)
        ends = self._lifeline if method == "fork" else (self._lifeline[0], None)
        self._pool = ProcessPoolExecutor(self.jobs, mp_context=context, initializer=_serve, initargs=ends)
        self.started = True
        queued, self._queued, self._queued_ms = list(self._queued.values()), {}, 0.0
        if method == "fork":
            # The executor forks every worker at the first hand-over, from this thread: no other
            # thread exists to be copied mid-way. Until a worker has set its own handlers, a
            # signal would reach this build's (Ctrl-C raising KeyboardInterrupt in the copy).
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
            try:
                for later in queued[:1]:
                    self._hand_over(later)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            queued = queued[1:]
        else:
            self._outbox = queue.SimpleQueue()
            self._sender = threading.Thread(target=_send, args=(self._pool, self._outbox), name="printkit-workers",
                                            daemon=True)
            self._sender.start()
        for later in queued:
            self._hand_over(later)

    def _hand_over(self, later: Later) -> None:
        try:
            cwd = os.getcwd()
        except OSError:  # the working folder is gone: the work names no path relative to it
            cwd = None
        later._sent = threading.Event()
        if self._outbox is not None:
            self._outbox.put((later, cwd))
        else:
            _submit(self._pool, later, cwd)

    def _end_lifeline(self) -> None:
        for end in self._lifeline or ():
            end.close()
        self._lifeline = None

    def _unqueue(self, later: Later) -> None:
        if self._queued.pop(id(later), None) is not None:
            self._queued_ms -= later.cost_ms

    def _outcome(self, future) -> Any:
        from concurrent.futures.process import BrokenProcessPool

        try:
            if isinstance(future, BaseException):
                raise future
            return future.result()
        except BrokenProcessPool:
            raise BuildError(_BROKEN) from None


def _send(pool, outbox: queue.SimpleQueue) -> None:
    """Hand Laters to the workers, in order, until ``None`` comes.

    The first hand-over starts the workers, which waits for the fork server to be ready (its own
    Python starting and importing :data:`PRELOAD`, a few tenths of a second): here, in a thread of
    its own, so the build goes on laying out and drawing meanwhile.
    """
    while (item := outbox.get()) is not None:
        _submit(pool, *item)


def _submit(pool, later: Later, cwd: str | None) -> None:
    fn, args = later._call
    try:
        later._future = pool.submit(_call_in, cwd, fn, args)
    except Exception as exc:  # raised where its result is asked for
        later._future = exc
    finally:
        later._sent.set()


_BROKEN = "a worker process ended unexpectedly (out of memory?); build again, or with --jobs 1"


_STOPPING = {signal.SIGINT, signal.SIGTERM}


def start_method() -> str:
    """How this process starts workers now: ``fork``, ``forkserver`` or ``spawn`` (see above)."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    # Linux only: macOS's system libraries may not work in a forked copy (Python spawns there).
    if sys.platform.startswith("linux") and "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _context(method: str, preload: tuple[str, ...]):
    import importlib
    import multiprocessing

    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(list(preload))  # read when the server starts (once a process)
        from multiprocessing import forkserver, resource_tracker

        # Started with Ctrl-C blocked, the server forks every worker so: a worker is born with it
        # blocked, and unblocks it once it ignores it (_serve). Else a Ctrl-C while a worker starts
        # would reach it with Python's handler, and print a traceback. (SIGTERM stays as it is: a
        # worker meets its default action, and terminating a process must still end it.) The
        # resource tracker first: starting it unblocks Ctrl-C. Best effort: a server Python
        # starts again by itself, after this one died, has nothing blocked.
        resource_tracker.ensure_running()
        blocked = (signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                   if hasattr(signal, "pthread_sigmask") else None)
        try:
            forkserver.ensure_running()
        finally:
            if blocked is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    elif method == "fork":
        for name in preload:  # imported once, here, for every worker forked
            importlib.import_module(name)
    return context


def _serve(lifeline, own_copy_of_the_write_end) -> None:
    """Set up a worker: Ctrl-C is the build's to handle, and the worker ends with the build."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a forked worker has the build's handler
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING)  # blocked while it was forked
    if own_copy_of_the_write_end is not None:
        own_copy_of_the_write_end.close()  # else the pipe could never close while this worker lives
    from printkit.render.forms import svg_form_store

    # A forked worker would find the build's render cache lent for SVG forms: the cache is the
    # build's alone (a worker converts an SVG itself, into the same commands).
    svg_form_store.set(None)

    def watch() -> None:
        # A build killed outright cannot end its workers, which would wait for work forever
        # (and keep the fork server alive): the pipe's write end, held by the build alone, closes.
        try:
            lifeline.recv()
        except (EOFError, OSError):
            pass
        os._exit(1)

    threading.Thread(target=watch, name="printkit-lifeline", daemon=True).start()


def _call_in(cwd: str | None, fn: Callable[..., Any], args: tuple) -> Any:
    # Relative paths (a spec named on the command line) mean what they mean to the build, which
    # may have changed folder since the fork server started (a test, a watch).
    if cwd is not None and os.getcwd() != cwd:
        os.chdir(cwd)
    return fn(*args)
