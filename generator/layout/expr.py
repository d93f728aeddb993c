"""Jinja2 for layouts: sandboxed, strict, compiled once per source string.

Templates may only read the card data they are given; a sandbox keeps them away from
Python internals, and StrictUndefined turns a typo into an error (never an empty string).
Jinja2 is imported on the first template that is more than a plain lookup such as
``{{ card.name }}``: a build whose layouts only look values up does not pay for it.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..errors import Location

__all__ = ["ExprError", "Expressions", "is_template"]


class ExprError(Exception):
    """A template failed; carries the location of the template source (and the source)."""

    def __init__(self, location: Location | None, message: str, source: str = ""):
        self.location, self.message, self.source = location, message, source
        super().__init__(message)


def is_template(value) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def _fmt_signed(value) -> str:
    return f"+{value}" if isinstance(value, (int, float)) and value > 0 else str(value)


class Expressions:
    """Compiles and caches templates and bare expressions for one build."""

    def __init__(self):
        self._env = None
        self._templates: dict = {}
        self._exprs: dict = {}

    @property
    def env(self):
        if self._env is None:
            from jinja2 import StrictUndefined

            self._env = limited_sandbox()(undefined=StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True)
            self._env.filters["signed"] = _fmt_signed
        return self._env

    def render(self, source: str, context: dict) -> str:
        path = _plain_path(source)
        if path is not None:
            value = _lookup(context, path)
            if value is not _MISS:
                return str(value)
        try:
            template = self._templates.get(source)
            if template is None:
                template = self._templates[source] = self.env.from_string(source)
            return template.render(context)
        except Exception as exc:
            if not isinstance(exc, _failures()):
                raise
            raise ExprError(getattr(source, "location", None), _message(exc, source), source) from None

    def evaluate(self, source, context: dict):
        """A bare expression (``when:``, ``repeat:``); literals pass through."""
        if not isinstance(source, str):
            return source
        if is_template(source):
            return self.render(source, context)
        try:
            expr = self._exprs.get(source)
            if expr is None:
                expr = self._exprs[source] = self.env.compile_expression(source, undefined_to_none=False)
            value = expr(**context)
            if isinstance(value, self.env.undefined):
                str(value)  # raises UndefinedError with the missing name
            return value
        except Exception as exc:
            if not isinstance(exc, _failures()):
                raise
            raise ExprError(getattr(source, "location", None), _message(exc, source), source) from None


#: Longest string or list a template may build with ``*``, and largest power (in bits) with ``**``:
#: ``{{ 'x' * 10**10 }}`` in a layout is a located problem, not a hang or a MemoryError.
MAX_REPEAT = 10_000
MAX_POWER_BITS = 4_096


@lru_cache(maxsize=None)
def limited_sandbox(base=None):
    """``base`` (default ImmutableSandboxedEnvironment) with the ``*``/``**`` limits above."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

    class Sandbox(base or ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset(["*", "**"])

        def call_binop(self, context, operator, left, right):
            if operator == "*":
                for seq, n in ((left, right), (right, left)):
                    if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_REPEAT:
                        raise SecurityError(f"'*' would repeat to {len(seq) * n} items (at most {MAX_REPEAT})")
            elif isinstance(left, int) and isinstance(right, int) and right > 0 \
                    and left.bit_length() * right > MAX_POWER_BITS:
                raise SecurityError(f"'**' result too large (over {MAX_POWER_BITS} bits)")
            return super().call_binop(context, operator, left, right)

    return Sandbox


@lru_cache(maxsize=None)
def _failures() -> tuple:
    """What a template may raise that is the template's fault (reported, never a traceback)."""
    from jinja2 import TemplateError
    from jinja2.sandbox import SecurityError

    return (TemplateError, SecurityError, TypeError, ValueError, ZeroDivisionError, KeyError, AttributeError, IndexError)


_PATH = re.compile(r"^\{\{\s*([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*)\s*\}\}$")
_MISS = object()
_DICT_ATTRS = frozenset(dir(dict))


@lru_cache(maxsize=4096)
def _plain_path(source: str):
    """``"{{ card.name }}"`` → ("card", "name"): the common template that is a plain lookup."""
    match = _PATH.match(source)
    return tuple(match.group(1).split(".")) if match else None


def _lookup(context: dict, path: tuple):
    """Follow a plain lookup through dicts only, as Jinja would; anything else (a missing key,
    a dict-method name, a non-dict, a value Jinja would render differently) goes to Jinja."""
    value = context
    for key in path:
        if not isinstance(value, dict) or key in _DICT_ATTRS or key not in value:
            return _MISS
        value = value[key]
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        return _MISS
    return value


def _message(exc: Exception, source: str) -> str:
    shown = source if len(source) <= 60 else source[:57] + "..."
    return f"template {shown!r}: {exc}"
