"""Export profiles: ``layouts/profiles/export/<name>.yaml`` say how faces become images.

A profile is data the user can edit: a resolution, a bleed, and a table of products that
maps our trim sizes to a service's trims (The Game Crafter's poker card is 63.5 x 88.9 mm,
ours 63 x 88 mm). Pixels are always ``round((trim_mm + 2 * bleed_mm) / 25.4 * dpi)``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..content.game import leaves_game
from ..content.schema import Context, Spec, compile_schema, validate
from ..content.yamlload import NodeBudget, parse_file, parse_text
from ..errors import ContentError, Location, Problem
from ..layout.template import layout_search_path
from ..profiles import profile_typo
from ..units import parse_size

DEFAULT = "png-300"
KINDS = ("card", "tile", "token", "board")
SIZE_TOLERANCE = 0.15  # pt (~0.05 mm): sizes stored in mm may round differently

_SCHEMA = """
types:
  export_profile:
    fields:
      description: {type: str, optional: true}
      dpi: {type: int, min: 18, max: 1200, default: 300}
      bleed: {type: length, min: 0mm, max: 12mm, default: 3mm, doc: "Bleed around the trim in the image."}
      safe: {type: length, min: 0mm, max: 20mm, default: 3mm,
             doc: "The service's safe zone: how far inside its trim text must stay (warned otherwise)."}
      only_products: {type: bool, default: false, doc: "Skip components no product takes."}
      kinds: {type: list, items: {type: enum, values: [card, tile, token, board]},
              default: [card, tile, token, board]}
      products: {type: list, items: {type: product}, default: []}
  product:
    fields:
      name: {type: str, optional: true}
      size: {type: any, doc: "Our trim this product takes: a named size or [w, h]."}
      trim: {type: list, items: {type: length}, min_len: 2, max_len: 2, doc: "The service's trim."}
      bleed: {type: length, min: 0mm, max: 12mm, optional: true}
"""


@dataclass(frozen=True)
class Product:
    name: str
    size: tuple[float, float]       # our trim (points, portrait)
    trim: tuple[float, float]       # the service's trim (points, portrait)
    bleed: float | None


@dataclass(frozen=True)
class ExportProfile:
    name: str
    path: Path | None
    dpi: int
    bleed: float
    safe: float = 3 * 72 / 25.4     # shared/PRINT.md: text 3 mm inside the trim
    only_products: bool = False
    kinds: tuple = KINDS
    products: tuple = field(default_factory=tuple)

    def target(self, component) -> tuple[tuple[float, float], float] | None:
        """``(trim, bleed)`` in points for a component, or None when this profile skips it.

        A product matches our trim either way round; a landscape component gets the
        product's trim turned the same way.
        """
        if component.kind not in self.kinds:
            return None
        w, h = component.size_pt
        for product in self.products:
            pw, ph = product.size
            bleed = self.bleed if product.bleed is None else product.bleed
            if abs(w - pw) < SIZE_TOLERANCE and abs(h - ph) < SIZE_TOLERANCE:
                return product.trim, bleed
            if abs(w - ph) < SIZE_TOLERANCE and abs(h - pw) < SIZE_TOLERANCE:
                return (product.trim[1], product.trim[0]), bleed
        if self.only_products:
            return None
        return (w, h), self.bleed


def _types():
    problems: list = []
    types = compile_schema(parse_text(_SCHEMA, "<generator>/export/profile schema"), "<export schema>", problems)
    assert not problems, problems
    return types


def export_profile_path(name: str, game_root: Path) -> Path:
    # Problems name the game, not its game.yaml: the profile comes from the command line.
    for root in layout_search_path(game_root):
        candidate = root / "profiles" / "export" / f"{name}.yaml"
        if candidate.is_file():
            if leaves_game(candidate, game_root):  # the game's own layouts/profiles/: a link out of the game
                raise ContentError([Problem(Location(str(game_root), 0), "--profile",
                                            f"export profile {name!r} ({candidate.relative_to(game_root).as_posix()}) "
                                            "leaves the game directory (a link to a file outside it)")])
            return candidate
    known = sorted({p.stem for root in layout_search_path(game_root)
                    for p in (root / "profiles" / "export").glob("*.yaml")})
    raise ContentError([Problem(Location(str(game_root), 0), "--profile",
                                f"unknown export profile {name!r}{profile_typo(name, known)}; "
                                f"known: {', '.join(known) or 'none'}"
                                " (layouts/profiles/export/<name>.yaml)")])


def load_export_profile(name: str | None, game_root: Path) -> ExportProfile:
    """Load and check an export profile; problems are located (``path:line: field: message``)."""
    path = export_profile_path(name or DEFAULT, game_root)
    problems: list = []
    try:
        node = parse_file(path)
    except ContentError as exc:
        raise ContentError(exc.problems) from None
    if node is None:
        raise ContentError([Problem(Location(str(path), 1), "", "file is empty")])
    types = _types()
    ctx = Context(str(path), types, problems, NodeBudget(str(path)))
    data = validate(node, Spec("export_profile"), ctx, "")
    products = []
    for i, item in enumerate((data or {}).get("products") or []):
        where = Location(str(path), 0)
        try:
            size = parse_size(item["size"], "poker, square")
        except ValueError as exc:
            problems.append(Problem(where, f"products[{i}].size", str(exc)))
            continue
        trim = tuple(sorted(item["trim"]))
        products.append(Product(item.get("name") or f"products[{i}]", tuple(sorted(size)), trim,
                                item.get("bleed")))
    if problems:
        raise ContentError(problems)
    return ExportProfile(path.stem, path, data["dpi"], data["bleed"], data["safe"], data["only_products"],
                         tuple(data["kinds"]), tuple(products))
