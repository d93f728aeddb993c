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
            raise ExprError(getattr(source, "location", None), _message(exc, source, context), source) from None

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
            raise ExprError(getattr(source, "location", None), _message(exc, source, context), source) from None


#: Longest string or list a template may build with ``*``, and largest power (in bits) with ``**``:
#: ``{{ 'x' * 10**10 }}`` in a layout is a located problem, not a hang or a MemoryError.
MAX_REPEAT = 10_000
MAX_POWER_BITS = 4_096
#: Widest padding a filter or string method may add (``center``, ``indent``, ``'%9999d'``, ``'{:>9999}'``
#: ...) and longest string one may build (``join``, ``replace``, ``wordwrap``, ``indent``): checked
#: before the string is made, so ``{{ 'x' | center(10**9) }}`` is a located problem, not a hang.
MAX_WIDTH = MAX_REPEAT
MAX_STRING = 1_000_000

_PRINTF = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")
_FORMAT_NUMBER = re.compile(r"\d+")


@lru_cache(maxsize=None)
def limited_sandbox(base=None):
    """``base`` (default ImmutableSandboxedEnvironment) with the limits above on ``*``, ``**``,
    ``%``, the filters that pad, repeat or join, and the matching ``str`` methods."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

    def check_width(width, what):
        if isinstance(width, int) and width > MAX_WIDTH:
            raise SecurityError(f"{what} width {width} is too large (at most {MAX_WIDTH})")

    def check_length(length, what):
        if length > MAX_STRING:
            raise SecurityError(f"{what} would make {length} characters (at most {MAX_STRING})")

    def check_printf(spec, args):
        if not isinstance(spec, str):
            return
        for width, precision in _PRINTF.findall(spec):
            for number in (width, precision):
                if number == "*":
                    values = args if isinstance(args, tuple) else (args,)
                    for value in values:
                        check_width(value, "'%' format")
                elif number:
                    check_width(int(number), "'%' format")

    def check_replace(value, old, new, count=None, *_):
        value, old, new = str(value), str(old), str(new)
        times = len(value) + 1 if old == "" else value.count(old)
        if isinstance(count, int) and 0 <= count < times:
            times = count
        check_length(len(value) + times * len(new), "replace")

    def check_join(separator, items):
        check_length(len(str(separator)) * max(len(items) - 1, 0) + sum(len(str(i)) for i in items), "join")

    def check_indent(value, width=4, *_, **__):
        check_width(width, "indent")
        pad = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
        value = str(value)
        check_length(len(value) + (value.count("\n") + 1) * pad, "indent")

    def check_wordwrap(value, width=79, break_long_words=True, wrapstring=None, *_, **__):
        value = str(value)
        line_end = len(str(wrapstring)) if wrapstring is not None else 2  # newline_sequence is at most \r\n
        check_length(len(value) + (len(value) + 1) * line_end, "wordwrap")  # at worst a line per character

    filter_checks = {
        "center": lambda value, width=80, *_: check_width(width, "center"),
        "indent": check_indent,
        "format": lambda value, *args, **_: check_printf(value, args),
        "replace": check_replace,
        "batch": lambda value, linecount, fill_with=None, *_: fill_with is None or check_width(linecount, "batch"),
        "slice": lambda value, slices, *_, **__: check_width(slices, "slice"),
        "wordwrap": check_wordwrap,
    }

    def guard(original, check):
        skip = 0 if getattr(original, "jinja_pass_arg", None) is None else 1  # environment / eval context

        def filtered(*args, **kwargs):
            check(*args[skip:], **kwargs)
            return original(*args, **kwargs)

        filtered.__dict__.update(original.__dict__)  # keeps @pass_environment & co.
        return filtered

    def join_filter(original):
        def join(eval_ctx, value, d="", attribute=None):
            items = list(value)
            if attribute is None:
                check_join(d, items)
            else:
                check_length(len(str(d)) * max(len(items) - 1, 0), "join")
            return original(eval_ctx, items, d, attribute)

        join.__dict__.update(original.__dict__)
        return join

    method_checks = {
        "center": lambda s, width, *_: check_width(width, "center"),
        "ljust": lambda s, width, *_: check_width(width, "ljust"),
        "rjust": lambda s, width, *_: check_width(width, "rjust"),
        "zfill": lambda s, width: check_width(width, "zfill"),
        "expandtabs": lambda s, tabsize=8: check_width(tabsize, "expandtabs") or check_length(
            len(s) + s.count("\t") * max(tabsize, 0), "expandtabs"),
        "replace": check_replace,
    }

    class Sandbox(base or ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset(["*", "**", "%"])

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            for name, check in filter_checks.items():
                self.filters[name] = guard(self.filters[name], check)
            self.filters["join"] = join_filter(self.filters["join"])

        def call_binop(self, context, operator, left, right):
            if operator == "*":
                for seq, n in ((left, right), (right, left)):
                    if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_REPEAT:
                        raise SecurityError(f"'*' would repeat to {len(seq) * n} items (at most {MAX_REPEAT})")
            elif operator == "%":
                check_printf(left, right)
            elif isinstance(left, int) and isinstance(right, int) and right > 0 \
                    and left.bit_length() * right > MAX_POWER_BITS:
                raise SecurityError(f"'**' result too large (over {MAX_POWER_BITS} bits)")
            return super().call_binop(context, operator, left, right)

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (Jinja's signature)
            owner = getattr(__obj, "__self__", None)
            if isinstance(owner, str):  # a str method: 'x'.center(n), ', '.join(items) ...
                name = getattr(__obj, "__name__", None)
                if name == "join" and args:
                    items = list(args[0])
                    check_join(owner, items)
                    args = (items, *args[1:])
                elif name in method_checks:
                    method_checks[name](owner, *args, **kwargs)
            return super().call(__context, __obj, *args, **kwargs)

        def wrap_str_format(self, value):
            wrapper = super().wrap_str_format(value)
            if wrapper is not None:
                from string import Formatter

                for _, _, spec, _ in Formatter().parse(value.__self__):
                    if spec and "{" in spec:
                        raise SecurityError("a format width taken from an argument ('{:{}}') is not allowed")
                    for number in _FORMAT_NUMBER.findall(spec or ""):
                        check_width(int(number), "format")
            return wrapper

    return Sandbox


@lru_cache(maxsize=None)
def _failures() -> tuple:
    """What a template may raise that is the template's fault (reported, never a traceback)."""
    from jinja2 import TemplateError
    from jinja2.sandbox import SecurityError

    return (TemplateError, SecurityError, TypeError, ValueError, ArithmeticError, KeyError, AttributeError, IndexError)


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


class NoRecord(dict):
    """An empty ``card`` where there is no record (a shared back): a lookup in it says why."""

    def __init__(self, why: str):
        super().__init__()
        self.why = why


_DOTTED = re.compile(r"(?<![\w.'\"])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def _message(exc: Exception, source: str, context: dict) -> str:
    shown = source if len(source) <= 60 else source[:57] + "..."
    return f"template {shown!r}: {_explained(exc, source, context)}"


def _explained(exc: Exception, source: str, context: dict) -> str:
    """The error; for a missing key (``card.nmae``) with the close key of that mapping, as the
    content checks say, or why there is no record to look in."""
    from jinja2 import UndefinedError

    from ..content.schema import did_you_mean

    if isinstance(exc, UndefinedError):
        for match in _DOTTED.finditer(source):
            value, path = context, match.group(0).split(".")
            for depth, key in enumerate(path):
                if not isinstance(value, dict):
                    break
                if key not in value:
                    if isinstance(value, NoRecord):
                        return f"{'.'.join(path[:depth + 1])} does not exist: {value.why}"
                    known = [k for k in value if isinstance(k, str) and not k.startswith("_")]
                    return f"{exc}{did_you_mean(key, known)}"
                value = value[key]
        table = _TABLE_BY_KEY.search(source)
        if table and str(exc).startswith("'list object' has no attribute"):
            return (f"{exc} (data.{table.group(1)} is a list of records: by_id('{table.group(1)}', ...) finds one "
                    f"by its id)")
    return f"{exc}{misspelt_filter_hint(str(exc), _layout_env())}"


_TABLE_BY_KEY = re.compile(r"\bdata\.([A-Za-z_]\w*)\s*\[")  # data.cards[...]: a table indexed as if by id
_NO_FILTER = re.compile(r"No (filter|test) named '([^']+)'")


def misspelt_filter_hint(message: str, env) -> str:
    """`` (did you mean 'upper'?)`` for Jinja's ``No filter named 'uper'.`` (or test), from the filters
    and tests of ``env``; Jinja names the unknown one and not the one meant."""
    from ..content.schema import did_you_mean

    unknown = _NO_FILTER.match(message)
    if not unknown:
        return ""
    kind, name = unknown.groups()
    return did_you_mean(name, sorted(env.filters if kind == "filter" else env.tests))


@lru_cache(maxsize=None)
def _layout_env():
    """The filters and tests a layout template may use (Jinja's and ours), for the hint above."""
    return Expressions().env
