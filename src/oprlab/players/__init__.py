"""Computer commanders behind one small interface. May import ``oprlab.game`` and below."""

from oprlab.players.base import Commander, get_commander

__all__ = ["Commander", "get_commander"]
