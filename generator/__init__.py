"""The print-and-play generator: game data in, print sheets and verdicts out."""
__version__ = "0.1.0"
