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


@pytest.mark.parametrize("source, hint", [
    ("{{ card.lief }}", "(did you mean 'life'?)"),
    ("{{ card.nested.dep | upper }}", "(did you mean 'deep'?)"),
    ("{{ crad.name }}", "(did you mean 'card'?)"),
    ("{{ card.zzzzz }}", ""),                          # nothing close: no hint
    ("{{ card.name | uper }}", "No filter named 'uper'. (did you mean 'upper'?)"),
    ("{{ card.life | signd }}", "(did you mean 'signed'?)"),   # our own filter too
    ("{{ card.life is od }}", "No test named 'od'. (did you mean 'odd'?)"),
])
def test_a_misspelt_key_gets_the_close_one(source, hint):
    for evaluate in (Expressions().render, Expressions().evaluate):  # templates and bare when:/repeat:
        with pytest.raises(ExprError) as info:
            evaluate(source if evaluate.__name__ == "render" else source.strip("{} "), CONTEXT)
        assert hint in info.value.message and ("did you mean" in info.value.message) == bool(hint)


def test_a_table_indexed_by_an_id_is_told_to_use_by_id():
    context = {"card": {"start": "fox"}, "data": {"cards": [{"id": "fox", "name": "Fox"}]}}
    with pytest.raises(ExprError) as info:
        Expressions().render("{{ data.cards[card.start].name }}", context)
    assert info.value.message.endswith(
        "'list object' has no attribute 'fox' (data.cards is a list of records: by_id('cards', ...) finds one by its id)")


def test_templates_cannot_build_huge_strings_or_numbers():
    expressions = Expressions()
    assert expressions.render("{{ 'ab' * 3 }}|{{ 2 ** 10 }}|{{ 1.5 * 2 }}|{{ [0] * 2 }}", CONTEXT) == "ababab|1024|3.0|[0, 0]"
    for source, fragment in [("('x' * 10**8) | length", "'*' would repeat to 100000000 items"),
                             ("3 * [1, 2] * 10**6", "'*' would repeat"),
                             ("2 ** 100000 > 1", "'**' result too large")]:
        with pytest.raises(ExprError) as info:
            expressions.evaluate(source, CONTEXT)
        assert fragment in info.value.message


@pytest.mark.parametrize("source, fragment", [
    ("{{ 'x' | center(10**9) }}", "center width 1000000000 is too large"),
    ("{{ 'x' | indent(10**9) }}", "indent width"),
    ("{{ ('x\n' * 5000) | indent('y' * 5000) }}", "indent would make"),
    ("{{ '%999999999d' | format(1) }}", "'%' format width"),
    ("{{ '%*d' | format(10**9, 1) }}", "'%' format width"),
    ("{{ '%(a)999999999s' | format(a=1) }}", "'%' format width"),
    ("{{ '%999999999d' % 1 }}", "'%' format width"),
    ("{{ (range(99999) | join) | wordwrap(1, wrapstring='y' * 9000) }}", "wordwrap would make"),
    ("{{ range(99999) | join('x' * 5000) }}", "join would make"),
    ("{{ ('x' * 9000).join(range(99999)) }}", "join would make"),
    ("{{ (range(99999) | join) | replace('', 'x' * 100) }}", "replace would make"),
    ("{{ ('x' * 9000).replace('x', 'y' * 9000) }}", "replace would make"),
    ("{{ 'x'.center(10**9) }}", "center width"),
    ("{{ 'x'.ljust(10**9) }}", "ljust width"),
    ("{{ '1'.zfill(10**9) }}", "zfill width"),
    ("{{ ('\t' * 9000).expandtabs(9000) }}", "expandtabs would make"),
    ("{{ '{:>999999999}'.format(1) }}", "format width"),
    ("{{ '{:>{}}'.format(1, 10**9) }}", "format width taken from an argument"),
    ("{{ [1] | batch(10**9, 0) | list }}", "batch width"),
    ("{{ [1] | slice(10**9) | list }}", "slice width"),
    ("{{ range(10**9) | join }}", "MAX_RANGE"),  # Jinja's own limit: an OverflowError, now a template problem too
])
def test_filters_and_string_methods_cannot_build_huge_strings(source, fragment):
    with pytest.raises(ExprError) as info:
        Expressions().render(source, CONTEXT)
    assert fragment in info.value.message


def test_the_limited_filters_and_methods_still_work():
    source = ("{{ 'ab' | center(6) }}|{{ 'a\nb' | indent(2) }}|{{ '%3d' | format(5) }}|{{ '%05.1f' % 2.5 }}|"
              "{{ [1, 2, 3] | join(', ') }}|{{ card.nested | join(',', attribute='x') if false else 'j' }}|"
              "{{ 'aXb' | replace('X', '-') }}|{{ 'a b c' | wordwrap(2) }}|{{ 'x'.rjust(3) }}|{{ '{:>4}'.format(7) }}|"
              "{{ ', '.join(['a', 'b']) }}|{{ [1, 2, 3] | batch(2, 0) | list }}|{{ 7 % 3 }}|{{ '%s!' % card.name }}")
    assert Expressions().render(source, CONTEXT) == \
        "  ab  |a\n  b|  5|002.5|1, 2, 3|j|a-b|a\nb\nc|  x|   7|a, b|[[1, 2], [3, 0]]|1|騎士!"
