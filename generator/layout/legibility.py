"""Colour maths of the legibility checks: contrast of text on its ground, and how a colour looks to a
player with a red-green colour vision deficiency. Pure functions of ``(r, g, b)`` in 0..1 (sRGB).

Sources:
- sRGB <-> linear: IEC 61966-2-1 (the transfer function WCAG 2 and CSS Color 4 use).
- Relative luminance and contrast ratio: WCAG 2.1, "relative luminance" and "contrast ratio"
  (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio); thresholds of success criterion 1.4.3 (AA).
- Protanopia/deuteranopia: Machado, Oliveira & Fernandes, "A Physiologically-based Model for
  Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009: the severity 1.0 matrices of their
  table, applied to linear RGB.
- CIELAB (D65 white) and CIEDE2000: Sharma, Wu & Dalal, "The CIEDE2000 Color-Difference Formula:
  Implementation Notes, Supplementary Test Data, and Mathematical Observations", Color Research &
  Application 30(1), 2005 (equations 1-22 are followed step by step below).
"""
from __future__ import annotations

import math
from functools import lru_cache

from ..colours import normal_colour

__all__ = ["rgb_of", "hex_of", "contrast_ratio", "needed_contrast", "simulate", "delta_e_2000", "ciede2000",
           "DEFICIENCIES", "NORMAL_TEXT_CONTRAST", "LARGE_TEXT_CONTRAST"]

#: WCAG 2 AA: 4.5:1 for text, 3:1 for large text (18 pt, or 14 pt bold).
NORMAL_TEXT_CONTRAST = 4.5
LARGE_TEXT_CONTRAST = 3.0

#: Machado et al. 2009, severity 1.0 (linear RGB in, linear RGB out).
DEFICIENCIES = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
}


@lru_cache(maxsize=1024)
def rgb_of(value: str) -> tuple:
    """``(r, g, b, alpha)`` of a colour as layouts write it (``#rgb``, ``#rrggbb``, a ReportLab name)."""
    from reportlab.lib import colors

    c = colors.toColor(normal_colour(value))
    alpha = getattr(c, "alpha", 1.0)
    return (c.red, c.green, c.blue, 1.0 if alpha is None else alpha)


def hex_of(rgb) -> str:
    return "#" + "".join(f"{round(min(max(v, 0.0), 1.0) * 255):02x}" for v in rgb[:3])


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def luminance(rgb) -> float:
    """WCAG 2 relative luminance (its 0.03928 cut-off differs from sRGB's 0.04045 only below 1/255)."""
    r, g, b = (_linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a, b) -> float:
    """WCAG 2 contrast ratio of two colours, 1..21."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def needed_contrast(size_pt: float, bold: bool) -> float:
    """WCAG's "large text" (18 pt, or 14 pt bold) needs 3:1, smaller text 4.5:1."""
    large = size_pt >= 18 or (bold and size_pt >= 14)
    return LARGE_TEXT_CONTRAST if large else NORMAL_TEXT_CONTRAST


def simulate(rgb, deficiency: str) -> tuple:
    """How an sRGB colour looks under ``deficiency`` (a key of DEFICIENCIES), as sRGB."""
    linear = [_linear(c) for c in rgb[:3]]
    return tuple(_encoded(sum(m * c for m, c in zip(row, linear))) for row in DEFICIENCIES[deficiency])


def _lab(rgb) -> tuple:
    """CIELAB (D65) of an sRGB colour, through CIE XYZ (the sRGB standard's matrix)."""
    r, g, b = (_linear(c) for c in rgb[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e_2000(rgb1, rgb2) -> float:
    """CIEDE2000 colour difference of two sRGB colours (kL = kC = kH = 1): about 1 is the smallest
    difference one sees side by side; a code read at a glance needs far more."""
    return ciede2000(_lab(rgb1), _lab(rgb2))


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 of two CIELAB colours (Sharma et al. 2005, eqs. 1-22)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    big_dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6)) - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (big_dh / s_h) ** 2
                     + r_t * (dc / s_c) * (big_dh / s_h))
