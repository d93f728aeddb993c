"""The text engine: markup, kinsoku line breaking, fit policy, drawing.

Text is laid out once (:func:`layout_text`) and drawn exactly as placed
(:func:`draw_text_block`). The rulebook can reuse the lower-level breaker
(:func:`break_lines`, :func:`wrap`, :func:`break_text`).
"""
from generator.text.draw import draw_text_block
from generator.text.kinsoku import NO_END, NO_START, break_lines, break_text, can_break, wrap
from generator.text.layout import Line, Run, TextBlock, layout_text, layout_tokens
from generator.text.markup import Icon, Newline, Text, Token, parse_markup

__all__ = [
    "Icon", "Line", "NO_END", "NO_START", "Newline", "Run", "Text", "TextBlock", "Token",
    "break_lines", "break_text", "can_break", "draw_text_block", "layout_text",
    "layout_tokens", "parse_markup", "wrap",
]
