"""Secret redaction: API keys and credential-shaped strings replaced with ``<redacted>`` before anything is
written (``run.json``, episode lines, the response cache, the leaderboard entry).

Card
----
- :class:`Redactor` knows the given secrets plus the values of environment variables whose names look secret
  (``OPENAI_API_KEY``, ``HF_TOKEN``, ...) and that look like credentials (long, no spaces, not a path);
  :meth:`Redactor.for_options` adds the values of secret-named options (``api_key=...``).
- :meth:`Redactor.text` replaces known secrets and anything shaped like ``sk-...``, ``hf_...``, a GitHub or AWS
  key or a bearer token; :meth:`Redactor.data` does the same in a JSON-able value, and always redacts values
  under secret-looking names.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

REDACTED = "<redacted>"

#: Option / setting names whose values are secrets whatever they look like.
_SECRET_NAME = re.compile(r"(api[_-]?key|key$|token|secret|password|passwd|auth|credential)", re.IGNORECASE)
#: Values that look like credentials wherever they appear (all characters JSON-safe, so lines stay valid).
_SECRET_VALUE = re.compile(
    r"(sk-[A-Za-z0-9_\-]{8,}"          # OpenAI-style keys (sk-..., sk-proj-...)
    r"|hf_[A-Za-z0-9]{10,}"            # Hugging Face tokens
    r"|gh[pousr]_[A-Za-z0-9]{16,}"     # GitHub tokens
    r"|AKIA[0-9A-Z]{16}"               # AWS access key ids
    r"|(?<=Bearer )[A-Za-z0-9._\-]{8,})"
)
_MIN_SECRET_LEN = 6
#: An environment value must look like a credential to count (long, no spaces, not a path): a short or
#: ordinary value such as ``TOKENIZERS_PARALLELISM=false`` must never be replaced inside the JSON lines.
_MIN_ENV_SECRET_LEN = 12


class Redactor:
    """Replaces known secret values and anything shaped like a credential with ``<redacted>``.

    Known secrets are the given ``secrets`` plus the values of environment variables whose names look secret
    (``OPENAI_API_KEY``, ``HF_TOKEN``, ...).
    """

    def __init__(self, secrets: Iterable[str] = (), environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        found = {s for s in secrets if isinstance(s, str) and len(s) >= _MIN_SECRET_LEN}
        found |= {v for k, v in env.items() if _SECRET_NAME.search(k) and _looks_like_credential(v)}
        self._secrets = sorted(found, key=len, reverse=True)  # longest first: no half-replaced secrets

    @classmethod
    def for_options(cls, options: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> Redactor:
        """A redactor that also knows the values of secret-named options (``api_key=...``)."""
        return cls((str(v) for k, v in options.items() if _SECRET_NAME.search(k)), environ)

    def text(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return _SECRET_VALUE.sub(REDACTED, text)

    def data(self, value: Any, name: str = "") -> Any:
        """A copy of a JSON-able value with secrets redacted (values under secret-looking names always)."""
        if isinstance(value, Mapping):
            return {k: self.data(v, str(k)) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.data(v, name) for v in value]
        if name and _SECRET_NAME.search(name) and value not in (None, "", False):
            return REDACTED
        if isinstance(value, str):
            return self.text(value)
        return value


def _looks_like_credential(value: str) -> bool:
    long_enough = len(value) >= _MIN_ENV_SECRET_LEN
    return long_enough and not value.startswith("/") and not any(c.isspace() for c in value)
