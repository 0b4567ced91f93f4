"""API keys from files: a key in a file stays out of ``ps`` and shell history.

:func:`read_key_file` returns the first non-empty line of a text file, stripped (None without a path);
a file that cannot be read, is not UTF-8 or holds no key is a :class:`~wmbench.core.errors.ConfigError` of
one line. Used by ``api_key_file=`` of the ``openai/`` brain and by ``wmbench serve --api-key-file``.
"""

from __future__ import annotations

from pathlib import Path

from wmbench.core.errors import ConfigError


def read_key_file(path: str | Path | None) -> str | None:
    """The key held in ``path`` (its first non-empty line), None when ``path`` is None or empty."""
    if path is None or str(path) == "":
        return None
    try:
        lines = Path(path).expanduser().read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else type(err).__name__
        raise ConfigError(f"key file {path}: cannot read it ({reason}); expected a text file holding the key"
                          ) from None
    key = next((line.strip() for line in lines if line.strip()), None)
    if key is None:
        raise ConfigError(f"key file {path} is empty; expected a text file holding the key")
    return key
