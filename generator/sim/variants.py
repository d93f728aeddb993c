"""Content variants for paired experiments (M5 card impact): the same tables with one card
turned into a neutral filler, everything else untouched."""
from __future__ import annotations

import copy
from typing import Callable


def with_record_changed(tables: dict, record_id: str, change: Callable[[dict], None]) -> dict:
    """A deep copy of ``tables`` where ``change(record)`` was applied to every record with that id."""
    twin = copy.deepcopy(tables)
    for table in twin.values():
        for record in table if isinstance(table, list) else []:
            if isinstance(record, dict) and record.get("id") == record_id:
                change(record)
    return twin


def without_effect(record: dict) -> None:
    """The filler of games whose cards act only through ``effect:``."""
    record["effect"] = []
