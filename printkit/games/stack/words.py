"""Stack Original's vocabulary: the four minerals and the four terrains, with their names.

Minerals and terrains share an order: the terrain at index i is set with cards that hold the
mineral at index i.
"""

from __future__ import annotations

from types import MappingProxyType

# The canonical order: a card's minerals are always listed this way.
MINERALS: tuple[str, ...] = ("ruby", "gold", "sapphire", "coal")
TERRAINS: tuple[str, ...] = ("red_rye_field", "eldorado", "pale_blue_dot", "coal_mine")
TERRAIN_MINERAL = MappingProxyType(dict(zip(TERRAINS, MINERALS)))

# The minerals' colours when a spec names none (art.colors wins).
DEFAULT_COLORS = MappingProxyType({"ruby": "#c8102e", "gold": "#e0a800", "sapphire": "#0057b8", "coal": "#2b2b2b"})
# (Korean, English) names; cards print the English ones in capitals.
MINERAL_NAMES = MappingProxyType({
    "ruby": ("루비", "ruby"),
    "gold": ("황금", "gold"),
    "sapphire": ("사파이어", "sapphire"),
    "coal": ("석탄", "coal"),
})
TERRAIN_NAMES = MappingProxyType({
    "red_rye_field": ("붉은 호밀밭", "Red Rye Field"),
    "eldorado": ("엘도라도", "Eldorado"),
    "pale_blue_dot": ("창백한 푸른 점", "Pale Blue Dot"),
    "coal_mine": ("탄광", "Coal Mine"),
})
