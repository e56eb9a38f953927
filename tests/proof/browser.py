"""Headless Chromium for tests: ``dump_dom`` for one look, :class:`Browser` to watch a page live.

:class:`Browser` speaks the DevTools protocol over ``--remote-debugging-pipe`` (JSON messages
ending in NUL on file descriptors 3 and 4), so it needs nothing beyond the standard library.
Chromium runs with a fresh profile and the flags that keep it off the network.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--mute-audio"]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def require_chromium() -> str:
    """Chromium's path; skips the test where it is absent, except in CI, where that is a failure."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing in CI: .ci/run installs it with apt-get install -y chromium")
        pytest.skip("Chromium is not installed (apt-get install chromium); CI installs it and runs this test")
    return path


def dump_dom(url: str, budget_ms: int = 5000) -> str:
    """The page's DOM after its scripts ran (and its pictures loaded), as Chromium serialises it."""
    chromium = require_chromium()
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", f"--virtual-time-budget={budget_ms}",
                               "--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def screenshot(url: str, path: Path, width: int, height: int) -> None:
    chromium = require_chromium()
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", "--hide-scrollbars",
                               f"--window-size={width},{height}", f"--screenshot={path}", url],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and path.is_file(), done.stderr[-2000:]


class Browser:
    """One headless Chromium showing ``url``; :meth:`evaluate` runs JavaScript in that page."""

    def __init__(self, url: str) -> None:
        chromium = require_chromium()
        self.profile = tempfile.TemporaryDirectory()
        to_child, self._to_browser = os.pipe()
        self._from_browser, from_child = os.pipe()

        def fds_3_and_4():  # the child's end of each pipe where Chromium looks for them
            os.dup2(to_child, 3)
            os.dup2(from_child, 4)

        # High, distinct numbers first, so the dup2 above never overwrites one with the other.
        to_child = _high(to_child)
        from_child = _high(from_child)
        self.process = subprocess.Popen(
            [chromium, *FLAGS, f"--user-data-dir={self.profile.name}", "--remote-debugging-pipe", url],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds_3_and_4, pass_fds=(3, 4))
        os.close(to_child)
        os.close(from_child)
        self._buffer = b""
        self._next_id = 0
        self.session = None
        deadline = time.monotonic() + 30
        while self.session is None:
            pages = [t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page"]
            if pages:
                self.session = self.call("Target.attachToTarget", targetId=pages[0]["targetId"],
                                         flatten=True)["sessionId"]
            elif time.monotonic() > deadline:
                raise AssertionError("Chromium opened no page")
            else:
                time.sleep(0.1)

    def call(self, method: str, session: str | None = None, **params) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise AssertionError(f"{method}: {reply['error']}")
                return reply["result"]

    def _receive(self) -> dict:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise AssertionError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def evaluate(self, expression: str):
        """The value of ``expression`` in the page (None while the page is between loads)."""
        result = self.call("Runtime.evaluate", session=self.session, expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, timeout: float = 15.0):
        """Poll ``expression`` until it is truthy; its value, or AssertionError after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except AssertionError:  # the page navigated away mid-call (a reload): ask again
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{expression} stayed false for {timeout} s")
            time.sleep(0.1)

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (AssertionError, OSError):
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        self.profile.cleanup()

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _high(fd: int) -> int:
    import fcntl

    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high
