"""Content: YAML files → located, typed, cross-checked plain values."""
from .game import Component, Game, load_game, text_in

__all__ = ["Component", "Game", "load_game", "text_in"]
