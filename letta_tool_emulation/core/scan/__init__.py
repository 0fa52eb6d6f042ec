"""The scanner: one state machine, in rooms (see scanner.py)."""

from .scanner import Scanner, record
from .states import TRANSITIONS, State, unknown

__all__ = ["TRANSITIONS", "Scanner", "State", "record", "unknown"]
