"""Did you mean …? — the nearest known name to a mistyped one, for every "unknown X" message.

Card
----
:func:`nearest` returns the known name closest to ``name`` (case-insensitive; an exact match ignoring case
first, then :func:`difflib.get_close_matches` at ``cutoff``), or None when nothing is close enough to be a
plausible typo. :func:`did_you_mean` is the same as a message fragment: ``"did you mean 'smpl'? "`` or ``""``.
Registries (:class:`~wmbench.core.errors.UnknownNameError`), the brain specs and the CLI's command names all
use it, so one rule decides what counts as close.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: how similar (difflib ratio, 0..1) a known name must be to be suggested
CUTOFF = 0.6


def nearest(name: str, known: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The known name closest to ``name``, or None when none is close (see module card)."""
    choices = [k for k in dict.fromkeys(known) if isinstance(k, str)]
    by_lower = {k.lower(): k for k in choices}
    wanted = name.strip().lower()
    if wanted in by_lower and by_lower[wanted] != name:
        return by_lower[wanted]
    close = difflib.get_close_matches(wanted, list(by_lower), n=1, cutoff=cutoff)
    if not close or by_lower[close[0]] == name:
        return None
    return by_lower[close[0]]


def did_you_mean(name: str, known: Iterable[str], cutoff: float = CUTOFF) -> str:
    """``"did you mean 'x'? "`` for the nearest known name, ``""`` when none is close."""
    found = nearest(name, known, cutoff)
    return f"did you mean {found!r}? " if found else ""
