"""``pnp export GAME --png``: one PNG per distinct face, for print-on-demand uploads.

Fronts: one per record (``<component>/<id>.png``); backs: ``<component>/back.png`` for a
shared back, ``<component>/back-<n>.png`` for each distinct per-card back. Every image is
8-bit RGB (no alpha), tagged sRGB, at the export profile's dpi with its bleed, rasterized
from a PDF the painter drew. ``index.json`` lists every file with the records that use it
and their copy counts (what a print-on-demand upload asks for), the face hashes and which pnp
drew each image (``drawn_by``): a re-export only renders faces whose hash, size or profile
changed or that another version of pnp drew, and deletes images of faces that no longer exist
(only files it wrote, as listed in its previous index).
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

from .. import __version__
from ..content.game import text_in
from ..outputs import write_atomic
from ..units import to_mm
from .faces import FaceHasher, copies, distinct_faces, record_id
from .profile import load_export_profile
from .raster import faces_pdf, fit_frame, png_bytes, rasterize
from .result import ExportResult, load_checked_cards
from .safe_zone import safe_zone_warnings

INDEX = "index.json"
BATCH = 24           # faces per intermediate PDF (memory stays flat)
# A face's hash covers what it draws, not how pnp draws it: an upgrade that draws differently
# must redraw every image. pnp's version changes with every release a user installs, where a
# constant bumped by hand would be forgotten the one time it matters (one full redraw per upgrade
# is the price). Kept per image: a --component export leaves the others as the older pnp drew them.
# The packages that make the pixels count as much: ReportLab writes the face, pypdfium2 rasterizes
# it (its anti-aliasing, its image filters) and Pillow decodes the art and writes the PNG.
_PIXEL_PACKAGES = ("reportlab", "pypdfium2", "pillow")


@functools.cache
def drawn_by(version_of=None) -> str:
    """What drew an image, ``pnp 0.1.0, reportlab 4.2.5, pypdfium2 4.30.0, pillow 11.0.0``: versions read
    from the installed metadata (importing pypdfium2 or Pillow only to ask would cost the export time)."""
    from importlib import metadata

    def version(name):
        try:
            return (version_of or metadata.version)(name)
        except metadata.PackageNotFoundError:  # (run from a source tree without its metadata)
            return "unknown"

    return ", ".join([f"pnp {__version__}", *(f"{name} {version(name)}" for name in _PIXEL_PACKAGES)])


def png_dir(out_dir: Path, profile_name: str, dpi: int | None = None, profile_dpi: int | None = None) -> Path:
    """``png/<profile>/``; at a ``dpi`` other than the profile's, ``png/<profile>-<dpi>dpi/`` (a profile
    named after its dpi drops it: ``png-300`` at 60 dpi is ``png-60dpi``), so that an export at another
    resolution does not replace the images at the profile's own (each re-export would redraw them all)."""
    if dpi is None or dpi == profile_dpi:
        return Path(out_dir) / "png" / profile_name
    base = profile_name.removesuffix(f"-{profile_dpi}")
    return Path(out_dir) / "png" / f"{base}-{dpi}dpi"


def export_png(path: Path, out_dir: Path, *, profile: str | None = None, dpi: int | None = None,
               components=None, cards_in=None, progress=None) -> ExportResult:
    """``progress(done, total)``: called after each batch of faces drawn (a bar on a terminal)."""
    result = ExportResult()
    game, cards = load_checked_cards(path, result, cards_in)
    if cards is None:
        return result
    prof = load_export_profile(profile, game.root)
    dpi = dpi or prof.dpi
    target_dir = png_dir(out_dir, prof.name, dpi, prof.dpi)
    lang = game.meta.get("lang", "ja")

    hasher = FaceHasher(cards)
    jobs, trims = [], []
    skipped = []
    for face in distinct_faces(cards, components, hasher):
        target = prof.target(face.component)
        if target is None:
            if face.component.id not in skipped:
                skipped.append(face.component.id)
            continue
        trim, bleed = target
        frame = fit_frame(face.component.size_pt, cards.bleed, dpi, trim, bleed)  # what the faces paint
        jobs.append((face, frame))
        trims.append(trim)
    result.problems.extend(safe_zone_warnings(game, [(face, frame, trim) for (face, frame), trim in zip(jobs, trims)],
                                              prof))
    for cid in skipped:
        component = game.component(cid)
        w, h = component.size_pt
        result.notes.append(f"{cid}: no product for {to_mm(w):g}x{to_mm(h):g} mm in export profile"
                            f" {prof.name!r}; skipped")

    previous = _read_index(target_dir / INDEX)
    old_files = {entry["file"]: entry for entry in previous.get("faces", [])}
    # --component: the other components' images (and their index entries) stay as they are
    kept = [e for e in old_files.values() if components and e.get("component") not in components]
    for entry in kept:
        del old_files[entry["file"]]
    entries, todo = [], []
    for face, frame in jobs:
        rel = f"{face.component.id}/{face.name}.png"
        entry = {
            "file": rel,
            "component": face.component.id,
            "side": face.side,
            "records": [record_id(face.component, i) for i in face.records],
            "names": [_name(face.component, i, lang) for i in face.records],
            "copies": sum(copies(face.component, i) for i in face.records),
            "px": list(frame.px),
            "dpi": dpi,
            "fit": [round(frame.scale, 6), round(frame.origin[0], 4), round(frame.origin[1], 4)],
            "digest": face.digest,
            "drawn_by": drawn_by(),
        }
        entries.append(entry)
        old = old_files.get(rel)
        if old and _same_image(old, entry) and (target_dir / rel).is_file():
            result.unchanged += 1
            continue
        todo.append((face, frame, target_dir / rel))

    for start in range(0, len(todo), BATCH):
        batch = todo[start:start + BATCH]
        pdf = faces_pdf(cards, [(face.faces, face.ops(), frame) for face, frame, _ in batch],
                        title=f"{game.title} faces")
        for (face, frame, dest), image in zip(batch, rasterize(pdf, [frame.px for _, frame, _ in batch])):
            result.written.append(write_atomic(dest, png_bytes(image, dpi)))
        if progress:
            progress(start + len(batch), len(todo))

    current = {e["file"] for e in entries}
    for rel in sorted(set(old_files) - current):
        stale = target_dir / rel
        if stale.is_file():
            stale.unlink()
            result.removed.append(stale)
    index = {
        "game": game.id,
        "title": text_in(game.meta["title"], lang),
        "profile": prof.name,
        "dpi": dpi,
        "skipped_components": skipped + [c for c in previous.get("skipped_components", [])
                                         if components and c not in components and c not in skipped],
        "faces": _in_game_order(game, entries + kept),
    }
    result.written.append(write_atomic(target_dir / INDEX, json.dumps(index, ensure_ascii=False, indent=1) + "\n"))
    if not jobs:
        result.notes.append(f"export profile {prof.name!r} takes none of this game's components")
    return result


def _same_image(old: dict, entry: dict) -> bool:
    """The previous export's image of this file is the one this export would draw."""
    return all(old.get(key) == entry[key] for key in ("digest", "px", "dpi", "fit", "drawn_by"))


def _in_game_order(game, entries):
    """Entries by component as game.yaml lists them (as a full export writes them)."""
    order = {c.id: n for n, c in enumerate(game.components)}
    return sorted(entries, key=lambda e: order.get(e.get("component"), len(order)))


def _name(component, index, lang):
    from .faces import record_name
    return record_name(component, index, lang)


def _read_index(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}
