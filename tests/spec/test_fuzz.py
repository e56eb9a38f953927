"""Random documents and mutated real specs: loading gives a deck or a SpecError, nothing else."""

from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printkit.errors import SpecError
from printkit.spec import variant_names
from printkit.decks import expand
from printkit.spec.files import load_spec

DECKS = Path(__file__).resolve().parents[2] / "decks"
REAL = {p.name: p.read_bytes() for p in sorted(DECKS.glob("*.yaml"))}

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                    st.text(max_size=12))
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20,
)


def load_or_error(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_bytes(raw)
    try:
        loaded = load_spec(path)
        for variant in variant_names(loaded):
            expand(loaded, variant)
    except SpecError as exc:
        assert exc.path == str(path)
        assert "\n" not in str(exc)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents)
def test_random_documents(tmp_path, doc):
    load_or_error(tmp_path, yaml.safe_dump(doc, allow_unicode=True).encode("utf-8"))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(REAL)), st.data())
def test_mutated_real_specs(tmp_path, name, data):
    raw = bytearray(REAL[name])
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "delete", "insert", "truncate"]))
        pos = data.draw(st.integers(0, max(len(raw) - 1, 0)))
        if op == "flip" and raw:
            raw[pos] = data.draw(st.integers(0, 255))
        elif op == "delete" and raw:
            del raw[pos:pos + data.draw(st.integers(1, 20))]
        elif op == "insert":
            raw[pos:pos] = data.draw(st.sampled_from([b":", b"- ", b"\t", b"&a ", b"*a", b"{", b"]", b"\n  ", b"-1", b"'", b"\xff"]))
        else:
            del raw[pos:]
    load_or_error(tmp_path, bytes(raw))
