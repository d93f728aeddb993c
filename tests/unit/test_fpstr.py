"""The memo of ReportLab's number formatting: the text fp_str gives, whatever was asked before, and bounded."""
from reportlab.lib.rl_accel import fp_str

from generator import fpstr


def test_the_memo_gives_what_fp_str_gives_for_every_key_asked_in_any_order(monkeypatch):
    monkeypatch.setattr(fpstr, "FP", fpstr._Formatted())
    keys = [0.0, -0.0, 1, 1.0, True, 2.5, -2.5, 1e-7, -0.00001, 123.4567891, 1e20, 10**20,
            (0.0, 1), (-0.0, 1.0), (1, 2.5), (1.0, 2.5), (12.5, 700.25, 180.0, 252.0), (1e-7, -1e-7)]
    for order in (keys, keys[::-1], keys + keys):
        fpstr.FP.clear()
        for key in order:  # equal keys (1 and 1.0, -0.0 and 0.0) share an entry: their texts must agree
            assert fpstr.FP[key] == (fp_str(*key) if type(key) is tuple else fp_str(key)), key


def test_the_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(fpstr, "MAX_ENTRIES", 50)
    memo = fpstr._Formatted()
    for n in range(500):
        assert memo[n / 7, n] == fp_str(n / 7, n)
        assert len(memo) <= 50
