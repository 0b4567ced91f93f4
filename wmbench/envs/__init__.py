"""WHERE it happens: the PyBullet world and the Gymnasium env.

PyBullet's C extension writes a "pybullet build time: ..." line to stderr when it is first imported — once per
process, so a parallel ``wmbench run`` printed it once per worker. The package imports it here first, with
stderr pointed at /dev/null for that import only (errors still surface as Python exceptions).
"""

import os as _os
import sys as _sys


def _import_pybullet_quietly() -> None:
    try:
        fd = _sys.stderr.fileno()
    except (AttributeError, ValueError, OSError):  # no real stderr (e.g. replaced by a capture object)
        import pybullet
        return
    _sys.stderr.flush()
    saved = _os.dup(fd)
    try:
        with open(_os.devnull, "w") as devnull:
            _os.dup2(devnull.fileno(), fd)
            try:
                import pybullet  # noqa: F401
            finally:
                _os.dup2(saved, fd)
    finally:
        _os.close(saved)


if "pybullet" not in _sys.modules:
    _import_pybullet_quietly()
