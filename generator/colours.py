"""Colour strings as content and layouts write them: ``#rrggbb``, ``#rgb`` or a ReportLab colour name.

One spelling reaches the painters: ReportLab reads ``#rgb`` as the integer 0xrgb (``#fff`` is the
blue #000fff), so a short hex is written out long (``#fff`` -> ``#ffffff``) where it is checked.
"""
from __future__ import annotations

import re

__all__ = ["HEX", "normal_colour", "not_a_colour"]

HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")  # no alpha: print files stay opaque


def normal_colour(value: str) -> str:
    """``value`` with a short hex written out long, or ValueError when it is no colour."""
    if HEX.fullmatch(value):
        return value if len(value) == 7 else "#" + "".join(ch * 2 for ch in value[1:])
    from reportlab.lib import colors  # names only: most colours are hex

    if isinstance(getattr(colors, value, None), colors.Color):
        return value
    raise ValueError(not_a_colour(value))


def not_a_colour(value) -> str:
    """What is said of a value that is no colour: the forms a colour takes, and a close name."""
    from difflib import get_close_matches

    from reportlab.lib import colors

    names = [name for name, known in vars(colors).items() if isinstance(known, colors.Color) and name.islower()]
    close = get_close_matches(value, names, n=1, cutoff=0.75) if isinstance(value, str) and value[:1] != "#" else []
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{value!r} is not a colour ('#rrggbb', '#rgb' or a colour name{hint})"
