import os
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parent.parent

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True, scope="session")
def own_state_folder(tmp_path_factory):
    """The render cache's secret (printkit.cache.secret) is made in a folder of the tests' own,
    not in the home folder of whoever runs them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
        yield


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture(autouse=True, scope="session")
def inputs_settle_at_once():
    """Tests write a spec and build it at once, far sooner than a designer saves and builds: their
    files count as settled (printkit.pipeline.replay.SETTLE_NS) when written, so a rebuild finds the
    first build's records as it would have before. tests/test_unchanged.py tests the wait itself."""
    from printkit.pipeline import replay as unchanged

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(unchanged, "SETTLE_NS", 0)
        patch.setattr(unchanged, "SETTLE_COARSE_NS", 0)
        yield
