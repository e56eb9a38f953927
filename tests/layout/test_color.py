import pytest

from printkit.layout.color import luminance, mix, on_color, rgb, shade, tint


def test_mix_tint_and_shade_blend_per_channel():
    assert mix("#000000", "#ffffff", 0.5) == "#808080"
    assert mix("#c8102e", "#0057b8", 0.0) == "#c8102e"
    assert mix("#c8102e", "#0057b8", 1.0) == "#0057b8"
    assert tint("#204060", 1.0) == "#ffffff"
    assert shade("#204060", 1.0) == "#000000"


def test_luminance_is_linearised():
    assert luminance("#000000") == 0.0
    assert luminance("#ffffff") == pytest.approx(1.0)
    # Mid grey by bytes is about a fifth of white's light, not a half.
    assert luminance("#808080") == pytest.approx(0.216, abs=0.001)
    # The Stack palette: coal is darker than ruby, which is darker than gold.
    assert luminance("#2b2b2b") < 0.08 < luminance("#c8102e") < luminance("#e0a800")


def test_on_color_picks_the_legible_text_colour():
    assert on_color("#2b2b2b") == "#ffffff"
    assert on_color("#c8102e") == "#ffffff"
    assert on_color("#e0a800") == "#1d1d1f"
    assert on_color("#e0a800", ink="#101010") == "#101010"


@pytest.mark.parametrize("bad", ["red", "#fff", "c8102e", "#c8102g", ""])
def test_bad_colours_are_quoted(bad):
    with pytest.raises(ValueError, match="expected a colour"):
        rgb(bad)
