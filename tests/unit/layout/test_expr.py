"""Templates: the plain-lookup fast path renders exactly what Jinja renders; the sandbox holds."""
import pytest
from jinja2 import StrictUndefined
from jinja2.sandbox import ImmutableSandboxedEnvironment

from generator.layout.expr import ExprError, Expressions

CONTEXT = {"card": {"name": "騎士", "life": 12, "ratio": 0.5, "flag": True, "none": None, "items": [1, 2],
                    "nested": {"deep": "x"}}, "v": {"accent": "#123456"}}


@pytest.mark.parametrize("source", [
    "{{ card.name }}", "{{card.life}}", "{{ card.ratio }}", "{{ card.flag }}", "{{ card.none }}",
    "{{ card.nested.deep }}", "{{ v.accent }}", "{{ card.nested }}",
])
def test_fast_path_matches_jinja(source):
    env = ImmutableSandboxedEnvironment(undefined=StrictUndefined)
    assert Expressions().render(source, CONTEXT) == env.from_string(source).render(CONTEXT)


@pytest.mark.parametrize("source, fragment", [
    ("{{ card.lief }}", "lief"),                       # a typo is an error, never ""
    ("{{ card.items }}", "method"),                    # dict methods win in Jinja: not a plain lookup
    ("{{ card.__class__.__mro__ }}", ""),              # sandbox: no Python internals
    ("{{ ''.__class__.__subclasses__() }}", ""),
])
def test_errors_and_sandbox(source, fragment):
    expressions = Expressions()
    if fragment == "method":
        assert "built-in method" in expressions.render(source, CONTEXT)  # what Jinja itself does
        return
    with pytest.raises(ExprError) as info:
        expressions.render(source, CONTEXT)
    assert fragment in info.value.message


def test_jinja_is_imported_only_for_a_template_that_needs_it():
    # Start-up matters for small decks: layouts that only look values up never load Jinja2.
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from generator.layout.expr import Expressions\n"
        "e = Expressions()\n"
        "assert e.render('{{ card.name }}', {'card': {'name': 'x'}}) == 'x'\n"
        "print('jinja2' in sys.modules)\n"
        "assert e.render('{{ card.n | signed }}', {'card': {'n': 2}}) == '+2'\n"
        "print('jinja2' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_when_expression_errors_are_located_after_a_lazy_import():
    with pytest.raises(ExprError) as info:
        Expressions().evaluate("card.lief > 2", CONTEXT)
    assert "lief" in info.value.message


def test_templates_cannot_build_huge_strings_or_numbers():
    expressions = Expressions()
    assert expressions.render("{{ 'ab' * 3 }}|{{ 2 ** 10 }}|{{ 1.5 * 2 }}|{{ [0] * 2 }}", CONTEXT) == "ababab|1024|3.0|[0, 0]"
    for source, fragment in [("('x' * 10**8) | length", "'*' would repeat to 100000000 items"),
                             ("3 * [1, 2] * 10**6", "'*' would repeat"),
                             ("2 ** 100000 > 1", "'**' result too large")]:
        with pytest.raises(ExprError) as info:
            expressions.evaluate(source, CONTEXT)
        assert fragment in info.value.message
