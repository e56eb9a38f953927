"""Stopping a long command cleanly: SIGTERM is handled as Ctrl-C is, so clean-up code runs."""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator


@contextlib.contextmanager
def interrupts_as_keyboard() -> Iterator[None]:
    """SIGINT and SIGTERM raise KeyboardInterrupt once; later ones are ignored while it unwinds.

    A build interrupted this way runs its clean-up (its temporaries removed, the manifest as it
    was) without a second Ctrl-C cutting that short. Only in the main thread; elsewhere a no-op.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signals = [signal.SIGINT] + ([signal.SIGTERM] if hasattr(signal, "SIGTERM") else [])
    saved = {sig: signal.getsignal(sig) for sig in signals}

    def interrupted(signum, frame):
        for sig in signals:
            signal.signal(sig, signal.SIG_IGN)
        raise KeyboardInterrupt

    for sig in signals:
        signal.signal(sig, interrupted)
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
