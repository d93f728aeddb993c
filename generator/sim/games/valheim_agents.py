"""Valheim agents (placeholder while the planner is written)."""
AGENTS = {}
