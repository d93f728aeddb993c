"""``pnp accelerate [GAME...]``: compile the engines that have a compiled list (mypyc) into the cache.

    pnp accelerate              # every engine with a list; what is built already is not built again
    pnp accelerate --status     # each engine: compiled, or Python and why

Opt in and never stale: see ``generator/sim/accelerate.py``. Needs mypy (``pip install -e '.[fast]'``)
and a C compiler; nothing else changes, and ``PNP_PURE_PYTHON=1`` runs everything as Python.
"""
from __future__ import annotations

import os

import click

from ..cli import common_options, reporter, run_reporting


@click.command()
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--status", is_flag=True, help="Only say, for each engine, whether it runs compiled and why not.")
@common_options
def accelerate(games, status):
    """Compile the simulators of GAMEs (default: every one that can be) with mypyc, for faster simulation."""
    from ..sim import accelerate as acc
    from ..sim.games import ENGINES as ALL

    if status:
        if games:
            raise click.UsageError("--status reports every engine: give no GAME with it")
        _print_status(acc, ALL)
        return
    unknown = [g for g in games if g not in ALL]
    if unknown:
        raise click.UsageError(f"no simulator named {unknown[0]} (simulators: {', '.join(sorted(ALL))})")
    listless = [g for g in games if acc.engine_of(g) is None]
    if listless:
        raise click.UsageError(f"{listless[0]}'s simulator has no compiled list yet (engines that compile: "
                               f"{', '.join(sorted(acc.ENGINES))})")
    wanted = list(games) or sorted(acc.ENGINES)
    rep = reporter()
    rep.task = "accelerate"
    from ..sim.accelerate_build import build, size

    results = run_reporting(lambda: build(wanted, lambda engine, message: rep.info(f"{engine}: {message}")))
    for built in results:
        how = f"built in {built.seconds:.0f} s" if built.fresh else "already built for these sources"
        click.echo(f"{built.engine}: compiled ({how}; {size(built.folder) / 1e6:.1f} MB in {built.folder})")
    if acc.disabled():
        click.echo(f"note: {acc.OFF}={os.environ[acc.OFF]} is set, so every engine still runs as Python")
    else:
        click.echo(ran_compiled(acc, ALL, wanted))


def ran_compiled(acc, engines, built: list[str]) -> str:
    """The closing line: which engines run compiled now (those just built, and others built before
    for their sources as they are) and which as Python."""
    compiled = [e for e in sorted(engines)
                if e in built or (acc.engine_of(e) is not None and acc.decide(e, loaded={}).compiled)]
    python = sorted(set(engines) - set(compiled))
    tail = f"; {', '.join(python)} as Python" if python else ""
    return f"pnp simulate and validate run {', '.join(compiled)} compiled{tail} ({acc.OFF}=1: all as Python)"


def _print_status(acc, engines) -> None:
    width = max(map(len, engines))
    compiled = 0
    for engine in sorted(engines):
        if acc.engine_of(engine) is None:
            click.echo(f"{engine:<{width}}  pure: no compiled list yet")
            continue
        decision = acc.decide(engine, loaded={})
        compiled += decision.compiled
        if decision.compiled:
            modules = acc.ENGINES[engine]
            shared = [m.rsplit(".", 1)[1] for m in modules if not m.startswith("generator.sim.games.")]
            every = f"; {' and '.join(shared)}, which every engine uses, with it" if shared else ""
            click.echo(f"{engine:<{width}}  compiled: {decision.reason} ({len(modules)} modules{every})")
        else:
            click.echo(f"{engine:<{width}}  pure: {decision.reason}")
    folder = acc.compiled_folder()
    if folder is not None:
        click.echo(f"cache: {folder}")
