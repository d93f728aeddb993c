"""Sheet profiles: ``layouts/profiles/<name>.yaml`` → an imposition ``Profile``."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .content.game import leaves_game, load_checked
from .content.schema import did_you_mean
from .content.yamlload import item_location, parse_file
from .errors import ContentError, Location, Problem
from .layout.template import layout_search_path
from .units import named_size


@dataclass(frozen=True)
class LoadedProfile:
    profile: object      # generator.impose.Profile
    paper_name: str      # "a4", "letter" ...; a print-shop profile's name ("shop"): names the print file
    path: Path


def profile_path(name: str, game_root: Path, where: Location | None = None, field: str = "print.profile") -> Path:
    for root in layout_search_path(game_root):
        candidate = root / "profiles" / f"{name}.yaml"
        if candidate.is_file():
            if leaves_game(candidate, game_root):  # the game's own layouts/profiles/: a link out of the game
                raise ContentError([Problem(where or Location(str(game_root / "game.yaml"), 0), field,
                                            f"sheet profile {name!r} ({candidate.relative_to(game_root).as_posix()}) "
                                            "leaves the game directory (a link to a file outside it)")])
            return candidate
    known = sorted({p.stem for root in layout_search_path(game_root) for p in (root / "profiles").glob("*.yaml")})
    raise ContentError([Problem(where or Location(str(game_root / "game.yaml"), 0), field,
                                f"unknown sheet profile {name!r}{profile_typo(name, known)}; "
                                f"known: {', '.join(known) or 'none'}")])


def profile_typo(name: str, known: list) -> str:
    # Profile names share their '-portrait'/'-landscape' half: only a near-spelling is a typo
    # ('a4-portait'), not another paper ('legal-portrait' is not 'a4-portrait').
    return did_you_mean(name, known, cutoff=0.85)


def game_profile(game, name: str | None = None, option: str = "--profile"):
    """The profile the command-line ``option`` names, else game.yaml's ``print.profile``; an
    unknown name is a problem located where it was written."""
    settings = game.meta["print"]
    if name:
        return load_profile(name, game.root, settings["duplex"], Location(str(game.root)), option)
    return load_profile(settings["profile"], game.root, settings["duplex"], game.at("print", "profile"))


def load_profile(name: str, game_root: Path, duplex: str | None = None, where: Location | None = None,
                 field: str = "print.profile"):
    """Load and check a profile; ``duplex`` (from game.yaml) applies unless the profile sets its own."""
    from .impose import ImposeError, profile_from_mapping

    path = profile_path(name, game_root, where, field)
    data = load_checked(path, "profile", "profile")
    w, h = named_size(data["paper"])
    if data["orientation"] == "landscape":
        w, h = max(w, h), min(w, h)
    mapping = {k: v for k, v in data.items() if k not in ("paper", "orientation", "description")}
    mapping["paper"] = (w, h)
    mapping["back_offset"] = tuple(data["back_offset"])
    mapping["duplex"] = data["duplex"] or duplex or "long-edge"
    if mapping["safe"] is None:  # not declared: the print file's safe zone is not checked
        del mapping["safe"]
    try:
        profile = profile_from_mapping(name, mapping)
    except ImposeError as exc:  # what the schema cannot see (a print shop's page with crop marks): at its key
        raise ContentError([Problem(item_location(parse_file(path), [exc.field], str(path)), exc.field or "",
                                    exc.message)]) from None
    # a shop's card-sized pages are no A4 file: print-shop.pdf beside print-a4.pdf, never over it
    tag = name.removeprefix("print-") if profile.print_shop else data["paper"]
    return LoadedProfile(profile, tag, path)
