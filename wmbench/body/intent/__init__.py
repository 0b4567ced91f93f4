"""MOTION text -> :class:`MotionIntent`: the word banks, the phrase table, the reader and the fallback note."""
