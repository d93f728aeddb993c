"""Progress for renderers that only call back: ``progress_callback(reporter, label)``.

The library's long steps (rendering the print pages, laying out the rulebook's chapters) print
nothing themselves; they call ``progress(done, total)`` as they go. This turns a reporter's
progress bar (``cli.Reporter.progress``: a bar on a terminal only) into such a callback, for
``pnp build`` and ``pnp rulebook`` alike.
"""
from __future__ import annotations

from contextlib import ExitStack, contextmanager


@contextmanager
def progress_callback(reporter, label: str):
    """``reporter.progress`` as a ``callback(done, total)``, or None without a reporter; the bar
    opens at the first call, when the total is known, and closes when the block ends."""
    if reporter is None:
        yield None
        return
    with ExitStack() as stack:
        state = {"bar": None, "done": 0}

        def advance(done, total):
            if state["bar"] is None:
                state["bar"] = stack.enter_context(reporter.progress(range(total), label, total))
            if hasattr(state["bar"], "update") and done > state["done"]:
                state["bar"].update(done - state["done"])
                state["done"] = done
        yield advance
