import gc
import weakref

import pytest

from printkit.cli import cycle_collector_paused


class Node:
    pass


def test_the_collector_is_paused_inside_and_restored_after():
    assert gc.isenabled()
    with cycle_collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with cycle_collector_paused():
            raise RuntimeError("a failed build")
    assert gc.isenabled()
    gc.disable()
    try:
        with cycle_collector_paused():
            pass
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        gc.enable()


def test_cycles_made_while_paused_are_still_collected_later():
    with cycle_collector_paused():
        node = Node()
        node.self = node
        alive = weakref.ref(node)
        del node
    assert alive() is not None  # nothing collected it while paused
    assert gc.get_freeze_count() == 0  # nothing stays frozen
    gc.collect()
    assert alive() is None
