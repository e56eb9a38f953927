"""The proof server of ``printkit watch --serve``: the output folder's files, on this machine only.

What it serves is decided by the folder's real contents, not by the request's spelling:

- only regular files whose real path (links resolved) lies inside the output folder; a link that
  leads out of it, a folder (never listed), a hidden name (``.printkit-cache``, temporaries) and
  the manifest are 404;
- only requests whose ``Host`` is the address it bound (``127.0.0.1:PORT``, ``localhost:PORT``,
  ``[::1]:PORT``): another name is 421, so a web page that rebinds a name of its own to this
  machine reads nothing;
- every answer says ``nosniff``, ``no-store`` and a Content-Security-Policy;
- connections are answered by a fixed set of threads, with a bounded number accepted and waiting
  and the rest left in the kernel's listen queue; a client gets 10 seconds between reads; a bad
  request or a client that hangs up is one line to ``log``, never a traceback.
"""

from __future__ import annotations

import contextlib
import mimetypes
import os
import queue
import stat
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import unquote, urlsplit

from printkit.errors import PrintkitError

WORKERS = 32  # threads answering at once
WAITING = 64  # connections accepted and waiting for a worker; more wait in the kernel's queue
BACKLOG = 512  # connections the kernel holds for them
HIDDEN = ("manifest.json",)  # at the folder's top: the build's record, not for the browser
CSP = ("default-src 'none'; img-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; "
       "script-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
CHUNK = 1 << 16


def resolve(root: Path, url_path: str) -> Path | None:
    """The regular file ``url_path`` names inside ``root`` (whose real path it must stay in), or
    None: a hidden name, the manifest, a folder, a link out of ``root`` or anything malformed.
    Hidden names and the manifest are judged on the real path too (a link to the cache, another
    spelling on a file system that ignores case)."""
    try:
        path = unquote(urlsplit(url_path).path, errors="strict")
    except (UnicodeDecodeError, ValueError):
        return None
    if "\x00" in path or "\\" in path or any(ord(ch) < 32 for ch in path):
        return None
    parts = [part for part in path.split("/") if part]
    if not parts or _hidden(parts):
        return None  # "." and "..", hidden files and folders: the cache, temporaries
    try:
        candidate = os.path.realpath(root.joinpath(*parts), strict=True)
    except (OSError, ValueError, RuntimeError):  # missing, a loop, a name too long
        return None
    base = str(root)
    if not candidate.startswith(base + os.sep) or _hidden(Path(candidate[len(base) + 1:]).parts):
        return None
    return Path(candidate)


def _hidden(parts) -> bool:
    names = [os.path.normcase(part) for part in parts]
    return any(name.startswith(".") or name.endswith((".", " ")) for name in names) or (
        len(names) == 1 and names[0] in {os.path.normcase(name) for name in HIDDEN})


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    protocol_version = "HTTP/1.0"  # one request a connection: a slow client holds one worker once
    timeout = 10  # seconds a client may keep a worker waiting for its request

    def do_HEAD(self) -> None:  # noqa: N802 (http.server's name)
        self._answer(body=False)

    def do_GET(self) -> None:  # noqa: N802
        self._answer(body=True)

    def _answer(self, body: bool) -> None:
        host = (self.headers.get("Host") or "").strip().lower()
        if host not in self.server.hosts:
            self._refuse(HTTPStatus.MISDIRECTED_REQUEST, f"refused a request for host {host[:80]!r}")
            return
        path = resolve(self.server.root, self.path)
        if path is None:
            self._refuse(HTTPStatus.NOT_FOUND)
            return
        try:
            # Never waiting on a pipe someone left there; the file's kind is checked next.
            descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC)
        except OSError:
            self._refuse(HTTPStatus.NOT_FOUND)
            return
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):  # a folder (never listed), a device, a pipe
            os.close(descriptor)
            self._refuse(HTTPStatus.NOT_FOUND)
            return
        with os.fdopen(descriptor, "rb") as handle:
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind in ("application/json", "image/svg+xml"):
                kind += "; charset=utf-8"
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(info.st_size))
            self._common_headers()
            self.end_headers()
            if body:
                left = info.st_size  # what was there when asked; a file growing meanwhile is cut
                while left > 0:
                    chunk = handle.read(min(CHUNK, left))
                    if not chunk:
                        break
                    self.wfile.write(chunk)
                    left -= len(chunk)

    def _common_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # the proof page polls itself for a new build
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Referrer-Policy", "no-referrer")

    def _refuse(self, status: HTTPStatus, why: str | None = None) -> None:
        if why:
            self.server.log(f"serve: {why}")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        text = f"{status.value} {status.phrase}\n".encode()
        self.send_header("Content-Length", str(len(text)))
        self._common_headers()
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(text)

    def send_error(self, code, message=None, explain=None) -> None:
        # http.server's own refusals (a malformed request line, an unknown method): one line
        self.server.log(f"serve: {code} for {self.requestline[:80]!r}" if getattr(self, "requestline", "")
                        else f"serve: {code}")
        with contextlib.suppress(OSError):
            super().send_error(code, message, explain)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass


class _Server(HTTPServer):
    """An HTTP server whose connections a fixed set of daemon threads answers: at most
    :data:`WORKERS` at once and :data:`WAITING` accepted meanwhile; the rest wait unaccepted."""

    request_queue_size = BACKLOG

    def __init__(self, address, root: Path, log: Callable[[str], None]) -> None:
        super().__init__(address, _Handler)
        self.root = root
        self.log = log
        port = self.server_address[1]
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}
        self._waiting: queue.Queue = queue.Queue(maxsize=WAITING)
        self._workers = [threading.Thread(target=self._work, name="printkit-serve", daemon=True)
                         for _ in range(WORKERS)]
        for worker in self._workers:
            worker.start()

    def process_request(self, request, client_address) -> None:
        self._waiting.put((request, client_address))  # blocks accepting while all are busy

    def _work(self) -> None:
        while True:
            job = self._waiting.get()
            if job is None:
                return
            request, client_address = job
            try:
                self.finish_request(request, client_address)
            except Exception as exc:  # noqa: BLE001 - a client that hangs up, a broken request
                self.handle_error_line(exc)
            finally:
                self.shutdown_request(request)

    def handle_error(self, request, client_address) -> None:
        pass  # errors are caught in _work, as one line

    def handle_error_line(self, exc: BaseException) -> None:
        if isinstance(exc, (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)):
            return  # the browser went away: nothing to say
        self.log(f"serve: {type(exc).__name__}: {exc}"[:200])

    def server_close(self) -> None:
        super().server_close()
        for _ in self._workers:
            with contextlib.suppress(queue.Full):
                self._waiting.put_nowait(None)


@contextlib.contextmanager
def serving(folder: Path, port: int = 0, log: Callable[[str], None] = lambda line: None) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 (a free port unless ``port``) from a thread; yields the URL."""
    folder.mkdir(parents=True, exist_ok=True)
    root = Path(os.path.realpath(folder))
    try:
        server = _Server(("127.0.0.1", port), root, log)
    except OSError as exc:
        raise PrintkitError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    thread = threading.Thread(target=server.serve_forever, name="printkit-serve", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
