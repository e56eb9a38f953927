"""Stopping a long command cleanly: SIGTERM is handled as Ctrl-C is, so clean-up code runs."""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator


# Whether a signal was turned into KeyboardInterrupt. The exception can be lost where it lands: in
# a finaliser or weak reference callback (said and dropped) or in a library's bare except (turned
# into another error); later signals are ignored by then, so a loop asks here as well.
_requested = [False]


def interrupt_requested() -> bool:
    """Whether SIGINT or SIGTERM came since the innermost :func:`interrupts_as_keyboard` began."""
    return _requested[0]


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
    _requested[0] = False

    def interrupted(signum, frame):
        for sig in signals:
            signal.signal(sig, signal.SIG_IGN)
        _requested[0] = True
        raise KeyboardInterrupt

    for sig in signals:
        signal.signal(sig, interrupted)
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
