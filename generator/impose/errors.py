"""The one error imposition raises: a profile, card size or board that cannot be laid out."""
from __future__ import annotations

from ..errors import GeneratorError


class ImposeError(GeneratorError):
    """A sheet profile, card size or board cannot be imposed.

    ``field`` names the profile key at fault when there is one (``"gutter"``) and
    ``path`` the profile file when known, so a caller holding YAML locations can
    report ``path:line: field: message``. ``str()`` is ``[path: ][field: ]message``.
    """

    def __init__(self, message: str, field: str | None = None, path: str | None = None):
        self.message = message
        self.field = field
        self.path = path
        super().__init__(message)

    def __str__(self) -> str:
        return ": ".join(part for part in (self.path, self.field, self.message) if part)
