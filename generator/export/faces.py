"""The distinct faces of a card set: one front per record, each distinct back once.

Exports (PNG, TTS) and the print lock all work from this list. A face is identified by its
component and record id (``enemies/e1_thug``); a back shared by a whole component is
``enemies/back``; per-card backs that draw the same (same ops) are one face.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field

from ..content.game import copies_of, text_in
from ..fonts import font_digest
from .digest import DIGITS, FileHashes, combine, data_digest, ops_digest, resolved_layout_digest

_DIGEST_BYTES = DIGITS // 2


def record_id(component, index: int) -> str:
    record = component.records[index]
    rid = record.get("id") if isinstance(record, dict) else None
    return str(rid) if rid not in (None, "") else f"{index + 1:03d}"


def record_name(component, index: int, lang: str) -> str:
    record = component.records[index]
    if isinstance(record, dict):
        for key in ("name", "title"):
            if record.get(key):
                return str(text_in(record[key], lang))
    return record_id(component, index)


@dataclass(eq=False)  # never compared by value: no __eq__ to generate at import
class Face:
    """One distinct face to render: ``side`` is front or back, ``record`` the record it draws
    (for a shared back: 0), ``records`` every record that shows it."""

    component: object
    faces: object                # cards.Faces
    side: str
    record: int
    name: str                    # file stem: record id, "back" or "back-2"
    records: list = field(default_factory=list)
    digest: str = ""

    @property
    def key(self) -> str:
        return f"{self.component.id}/{self.name}"

    def ops(self):
        if self.side == "front":
            return self.faces.fronts[self.record]
        return self.faces.back_for(self.record)


class FaceHasher:
    """Hashes of faces (see ``digest``), reusing file hashes across one run."""

    def __init__(self, cards):
        self.cards = cards
        self.files = FileHashes()
        self._layout: dict = {}  # layout name -> digest (one loader resolved every name once)
        # (faces, side) -> [ops hash per index], [assets hash per index]: two flat lists per
        # component side rather than a dict entry per face (a large deck's lock stays small)
        self._seen: dict = {}
        self._assets: dict = {}  # assets hash -> combined with the fonts
        fonts = cards.fonts
        self.fonts = combine(regular=font_digest(fonts.regular_path)[:DIGITS],
                             bold=font_digest(fonts.bold_path)[:DIGITS] if fonts.bold_path else None)

    def layout_digest(self, layout) -> str | None:
        """The digest of a layout as the cards' loader resolved it in the edition's language."""
        if layout is None:
            return None
        if layout.name not in self._layout:
            self._layout[layout.name] = resolved_layout_digest(layout, self.files)
        return self._layout[layout.name]

    def watch(self) -> "FaceHasher":
        """Hash every face as it is first made (e.g. while the print file is painted), so the
        lock does not instantiate the whole deck a second time."""
        for faces in self.cards.faces:
            faces.fronts.observers.append(self._observer(faces, "front"))
            if faces.backs is not None:
                faces.backs.observers.append(self._observer(faces, "back"))
        return self

    def _observer(self, faces, side):
        def observe(index, ops):
            ops_hash, assets = ops_digest(ops, self.files, self.cards.icons)
            hashes = self._seen.get((id(faces), side))
            if hashes is None:
                size = len(faces.fronts if side == "front" else faces.backs)
                hashes = self._seen[(id(faces), side)] = (bytearray(_DIGEST_BYTES * size), [None] * size)
            # raw bytes in one array, not a string object per face: a large deck's build keeps
            # no small object per face alive while it paints (less memory fragmentation)
            hashes[0][_DIGEST_BYTES * index:_DIGEST_BYTES * (index + 1)] = bytes.fromhex(ops_hash)
            hashes[1][index] = sys.intern(assets)  # most faces use the same assets: one string
        return observe

    def parts(self, faces, side: str, record: int, record_digest: str | None = None) -> dict | None:
        """The hashed inputs of one face: record, layout, assets, ops (None if there is no face);
        ``record_digest``: the front's record part when the caller has it (``digest.record_digests``)."""
        component = faces.component
        if side == "back" and faces.backs is None:
            return None
        slot = record if side == "front" or component.back_per_card else 0
        hashes = self._seen.get((id(faces), side))
        digests = None
        if hashes and hashes[1][slot] is not None:
            digests = (hashes[0][_DIGEST_BYTES * slot:_DIGEST_BYTES * (slot + 1)].hex(), hashes[1][slot])
        if digests is None:
            ops = faces.fronts[record] if side == "front" else faces.back_for(record)
            digests = ops_digest(ops, self.files, self.cards.icons)
        ops_hash, assets = digests
        if assets not in self._assets:  # most faces draw the same assets: hash them once
            self._assets[assets] = combine(images_icons=assets, fonts=self.fonts)
        # a back is what it draws (its ops read the record where the back shows card data);
        # the record's own data belongs to the front, so editing a card's text flags its front only
        # both in the edition's language: a text added in another language leaves this edition's lock as it was
        return {
            "record": (record_digest or data_digest(faces.records[record], self.files)) if side == "front" else None,
            "layout": self.layout_digest(faces.layouts[0 if side == "front" else 1]),
            "assets": self._assets[assets],
            "ops": ops_hash,
        }

    def face(self, faces, side: str, record: int) -> str | None:
        parts = self.parts(faces, side, record)
        return None if parts is None else combine(**parts)


def distinct_faces(cards, components=None, hasher: FaceHasher | None = None) -> list[Face]:
    """Fronts (one per record, file order) then the distinct backs of every component."""
    hasher = hasher or FaceHasher(cards)
    wanted = set(components) if components else None
    out: list[Face] = []
    for faces in cards.faces:
        component = faces.component
        if wanted is not None and component.id not in wanted:
            continue
        for i in range(len(component.records)):
            out.append(Face(component, faces, "front", i, record_id(component, i), [i],
                            hasher.face(faces, "front", i) or ""))
        if faces.backs is None:
            continue
        if not component.back_per_card:
            out.append(Face(component, faces, "back", 0, "back", list(range(len(component.records))),
                            hasher.face(faces, "back", 0) or ""))
            continue
        # per-card backs: the same drawing is one face (ops hash, not the record data)
        seen: dict = {}
        for i in range(len(component.records)):
            ops = faces.back_for(i)
            ops_hash, assets = ops_digest(ops, hasher.files, cards.icons)
            key = (ops_hash, assets)
            if key in seen:
                seen[key].records.append(i)
                continue
            n = len(seen) + 1
            face = Face(component, faces, "back", i, f"back-{n}", [i], hasher.face(faces, "back", i) or "")
            seen[key] = face
            out.append(face)
    return out


def copies(component, index: int) -> int:
    return copies_of(component.records[index])
