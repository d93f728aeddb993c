"""``pnp simulate --filler CARD``: the verdict's M5 paired check of one card, on any card and at any
player count. The screening of balance.pdf flags most cards (Valheim 17 of 23) by a difference that
is not the card's own effect (a card bought in games already going well: +0.41 where the paired
check measured +0.04), and the verdict pairs only the two it flags most, at one count; this plays the
same games with the card replaced by the engine's neutral filler (its ``ablate``) and compares."""
from __future__ import annotations

import click


def filled(engine, tables: dict, card: str) -> dict:
    """``tables`` with ``card`` made the engine's neutral filler; a usage error of ``--filler`` when the
    engine has no filler or the id names no card it tracks."""
    ablate = getattr(engine, "ablate", None)
    if ablate is None:
        raise click.BadParameter("this game's simulator cannot neutralise a card (its engine defines no ablate: "
                                 "docs/simulator.md)", param_hint="--filler")
    changed = ablate(tables, card)
    if changed == tables:  # no record of that id, or one the filler leaves as it is
        from ..content.schema import did_you_mean

        setup = engine.compile_setup(tables)
        known = sorted({*getattr(engine, "cards", lambda _setup: [])(setup),
                        *getattr(engine, "fixtures", lambda _setup: {})(setup)})
        shown = ", ".join(known[:12]) + (" ..." if len(known) > 12 else "")
        raise click.BadParameter(f"{card!r} is no card the filler changes{did_you_mean(card, known)}"
                                 f" (the cards it tracks: {shown})", param_hint="--filler")
    return changed
