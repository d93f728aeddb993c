"""ReportLab's ``fp_str`` (numbers as a PDF content stream writes them), memoised: ``FP[x]``, ``FP[x, y]``.

Why: a sheet draws the card faces at the same nine places page after page, so the text positions and
clip boxes written for a 540-card deck are ~7,600 calls on a few dozen distinct numbers, and each
``fp_str`` is a C ``sprintf`` per number. Keys that are equal give the same text (``fp_str`` formats a
number's value: ``1`` and ``1.0`` both give ``1``; ``-0.0`` and ``0.0`` both ``0``), so an entry is never
stale; the memo is cleared when full, as a long ``pnp watch`` would otherwise fill it.
"""
from __future__ import annotations

from reportlab.lib.rl_accel import fp_str

__all__ = ["FP", "MAX_ENTRIES"]

MAX_ENTRIES = 4096


class _Formatted(dict):
    def __missing__(self, key):
        if len(self) >= MAX_ENTRIES:
            self.clear()
        text = self[key] = fp_str(*key) if type(key) is tuple else fp_str(key)
        return text


FP = _Formatted()
