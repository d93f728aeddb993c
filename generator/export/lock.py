"""``print.lock.json``: a content hash per printed card, to know what changed since a print run.

Every ``pnp build`` writes ``output/<game>/print.lock.json``. Per card (``component/id``) it
keeps the hash of the front and of the back, each made of the card's record data, its layout
files (and their ``extends`` parents), the images, icons and fonts it uses, and the drawing
ops (see ``digest``). ``pnp build GAME --changed-since OLD.lock.json`` compares: a card is
*changed* when either side's hash differs (the reasons name the parts: ``front: layout``),
*new* when the old lock lacks it, *removed* when only the old lock has it, *renamed* when a new
card of a component draws exactly what a removed one of it drew (same ops and assets on both sides,
same copies): an id changed, nothing to reprint. Editing a layout changes the layout part of every
card drawn with it, so all of them are changed. A card whose text restates played fields also keeps
``restated``: the digests the next build compares (``restates.py``). ``fields`` keeps a short digest
of each of the record's top-level fields, so that a changed card names what was edited
(``changed bosses/b01 (front: record+ops): life``); a lock without them names none.

A lock is one edition's (``lang``): records and layouts are hashed as that edition reads them, their
texts in its language, so adding an English text leaves the Japanese lock as it was (format 2).
A format-1 lock (hashed every language of the files) is still read: its record and layout parts
cannot be compared, so cards are compared by what they draw (ops and assets) and the diff says so.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..content.game import text_in
from ..errors import BuildError
from .digest import combine, record_digests
from .faces import FaceHasher, copies, record_id, record_name
from .restates import restated_digests

LOCK_NAME = "print.lock.json"
FORMAT = 2
READABLE = (1, FORMAT)  # format 1 hashed records and layouts in every language (see the docstring)
PARTS = ("record", "layout", "assets", "ops")
DRAWN = ("assets", "ops")  # the parts every format hashes alike: what a face draws


def compute_lock(cards, hasher: FaceHasher | None = None) -> dict:
    game = cards.game
    lang = game.meta.get("lang", "ja")
    hasher = hasher or FaceHasher(cards)
    entries = {}
    restated = restated_digests(game)  # text vs played fields, for the next build's drift check
    files = hasher.files
    memo: dict = {}  # this build's field values, their JSON and digests (``record_digests``)
    shared: dict = {}  # equal back parts (a shared back) are one object: a large deck's lock stays small
    for faces in cards.faces:
        component = faces.component
        for i in range(len(component.records)):
            record, fields = record_digests(faces.records[i], files, memo)
            front = hasher.parts(faces, "front", i, record)
            back = hasher.parts(faces, "back", i) if faces.backs is not None else None
            back_hash = None
            if back:  # a shared back: one parts dict and one hash for every card
                key = tuple(back.values())
                if key not in shared:
                    shared[key] = (back, combine(**back))
                back, back_hash = shared[key]
            key = f"{component.id}/{record_id(component, i)}"
            entries[key] = {
                "component": component.id,
                "id": record_id(component, i),
                "index": i,
                "name": record_name(component, i, lang),
                "copies": copies(component, i),
                "front": combine(**front) if front else None,
                "back": back_hash,
                "parts": {"front": front, "back": back},
            }
            if fields is not None:  # 8 digits: enough to tell which field changed, and a small lock
                entries[key]["fields"] = fields
            if key in restated:
                entries[key]["restated"] = restated[key]
    return {
        "format": FORMAT,
        "game": game.id,
        "lang": lang,
        "title": text_in(game.meta["title"], lang),
        "version": game.meta.get("version"),
        "cards": entries,
    }


def restated_of(lock: dict) -> dict:
    """The ``restated`` digests of a lock's cards (``restates.restated_digests``' shape)."""
    return {key: entry["restated"] for key, entry in lock.get("cards", {}).items() if "restated" in entry}


def lock_json(lock: dict) -> str:
    return "".join(lock_lines(lock))


# json.dumps with options makes an encoder per call: two per card line
_ENTRY = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
_KEY = json.JSONEncoder(ensure_ascii=False)


def lock_lines(lock: dict):
    """The lock as JSON text, one card per line (a reprint shows as one changed line in a
    diff), produced piece by piece so a large deck is never one big string in memory."""
    head = {k: v for k, v in lock.items() if k != "cards"}
    yield "{\n"
    for key in sorted(head):
        yield f" {json.dumps(key)}: {json.dumps(head[key], ensure_ascii=False)},\n"
    yield ' "cards": {'
    cards = lock.get("cards", {})
    entry_json, key_json = _ENTRY.encode, _KEY.encode
    for n, key in enumerate(sorted(cards)):
        yield f"{',' if n else ''}\n  {key_json(key)}: {entry_json(cards[key])}"
    yield "\n }\n}\n"


def read_lock(path: Path) -> dict:
    """A lock written by ``pnp build``; ``BuildError`` naming the file when it is not one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BuildError(f"{path}: no such lock file (every `pnp build` writes output/<game>/{LOCK_NAME})") from None
    except (OSError, ValueError) as exc:
        raise BuildError(f"{path}: not a readable print lock ({exc})") from None
    if not isinstance(data, dict) or data.get("format") not in READABLE or not isinstance(data.get("cards"), dict):
        formats = " or ".join(str(f) for f in READABLE)
        raise BuildError(f"{path}: not a print lock of format {formats} (written by `pnp build`)")
    return data


@dataclass
class LockDiff:
    changed: list = field(default_factory=list)     # (key, [reasons])
    new: list = field(default_factory=list)         # keys
    removed: list = field(default_factory=list)     # (key, name, copies)
    renamed: list = field(default_factory=list)     # (old key, new key): the same printed card
    old_game: str = ""
    notes: list = field(default_factory=list)       # how the comparison was made, when not exactly
    fields: dict = field(default_factory=dict)      # key -> the record fields edited (added, removed)

    @property
    def reprint(self) -> list:
        """Keys of the cards to print again: changed and new, in the new lock's order."""
        return [k for k, _ in self.changed] + self.new

    @property
    def empty(self) -> bool:
        return not (self.changed or self.new or self.removed or self.renamed)

    def counts(self) -> str:
        renamed = f", {len(self.renamed)} renamed" if self.renamed else ""
        return f"{len(self.changed)} changed, {len(self.new)} new, {len(self.removed)} removed{renamed}"

    def edited(self, key: str) -> str:
        """``": life, text"``: the record fields edited on a changed card ("" when not known)."""
        names = self.fields.get(key)
        return f": {', '.join(names)}" if names else ""

    def lines(self) -> list[str]:
        out = [f"errata: {self.counts()}", *(f"  ({note})" for note in self.notes)]
        out += [f"  changed {key} ({', '.join(reasons)}){self.edited(key)}" for key, reasons in self.changed]
        out += [f"  new     {key}" for key in self.new]
        out += [f"  removed {key} ({name}, {n} cop{'y' if n == 1 else 'ies'})" for key, name, n in self.removed]
        out += [f"  renamed {old} -> {new} (the same print: nothing to reprint)" for old, new in self.renamed]
        return out


def diff_locks(old: dict, new: dict) -> LockDiff:
    diff = LockDiff(old_game=str(old.get("game", "")))
    old_cards, new_cards = old.get("cards", {}), new.get("cards", {})
    # locks of one format compare whole; across formats only what every format hashes alike
    exact = old.get("format") == new.get("format")
    if not exact:
        diff.notes.append(f"a lock of format {old.get('format')}, this build's is {new.get('format')}: "
                          f"cards compared by what they draw ({' and '.join(DRAWN)}) only")
    compared = PARTS if exact else DRAWN
    for key, entry in new_cards.items():
        before = old_cards.get(key)
        if before is None:
            diff.new.append(key)
            continue
        reasons = []
        for side in ("front", "back"):
            if exact and before.get(side) == entry.get(side):
                continue
            was = (before.get("parts") or {}).get(side) or {}
            now = (entry.get("parts") or {}).get(side) or {}
            if not (was or now):
                continue
            parts = [p for p in compared if was.get(p) != now.get(p)] if was and now else ["added" if now else "gone"]
            if parts:
                reasons.append(f"{side}: {'+'.join(parts)}")
        if reasons:
            diff.changed.append((key, reasons))
            edited = _edited_fields(before.get("fields"), entry.get("fields"))
            if edited:
                diff.fields[key] = edited
    gone = [key for key in old_cards if key not in new_cards]
    for key in list(diff.new):
        was = next((old for old in gone if _same_print(old_cards[old], new_cards[key])), None)
        if was is not None:
            gone.remove(was)
            diff.new.remove(key)
            diff.renamed.append((was, key))
    for key in gone:
        entry = old_cards[key]
        diff.removed.append((key, str(entry.get("name", "")), int(entry.get("copies", 1) or 1)))
    return diff


def _edited_fields(was, now) -> list:
    """The top-level record fields whose digest differs, in the new record's order, then those
    removed; none when either lock did not keep them (a lock written before they were)."""
    if not isinstance(was, dict) or not isinstance(now, dict):
        return []
    return [k for k in now if was.get(k) != now[k]] + [k for k in was if k not in now]


def _same_print(old: dict, new: dict) -> bool:
    """Whether two lock entries print the same card: one component, the same copies and, on both
    sides, the same drawing and assets (the record's data may differ: its id at least does)."""
    if old.get("component") != new.get("component") or old.get("copies") != new.get("copies"):
        return False
    for side in ("front", "back"):
        was, now = (old.get("parts") or {}).get(side), (new.get("parts") or {}).get(side)
        if (was is None) != (now is None):
            return False
        if was is not None and any(was.get(part) != now.get(part) for part in DRAWN):
            return False
    return True


def reprint_records(cards, diff: LockDiff) -> dict:
    """``{component id: set(record indices)}`` of the cards an errata sheet prints."""
    wanted = set(diff.reprint)
    out: dict = {}
    for faces in cards.faces:
        component = faces.component
        for i in range(len(component.records)):
            if f"{component.id}/{record_id(component, i)}" in wanted:
                out.setdefault(component.id, set()).add(i)
    return out
