"""The scanner: one state machine, in rooms (see scanner.py)."""

from .scanner import Scanner
from .states import TRANSITIONS, State

__all__ = ["TRANSITIONS", "Scanner", "State"]
