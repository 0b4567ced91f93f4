"""``wmbench cache info|clear``: look at or empty the response cache of the API brains.

Card
----
- ``wmbench cache info [--dir D]``: the folder, how many responses it holds and their size.
- ``wmbench cache clear [--dir D]``: delete every cached response; says how many.

The folder is ``--dir``, else ``$WMBENCH_CACHE_DIR``, else ``~/.cache/wmbench/responses`` (as the
``openai/`` provider uses it; see :mod:`wmbench.brain.providers.response_cache`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wmbench.brain.providers.response_cache import ResponseCache
from wmbench.harness.cli.base import EXIT_OK


def configure_cache(p: argparse.ArgumentParser) -> None:
    """The arguments of ``wmbench cache``."""
    p.add_argument("action", choices=("info", "clear"), help="info: what the cache holds; clear: empty it")
    p.add_argument("--dir", type=Path, default=None,
                   help="cache folder (default: $WMBENCH_CACHE_DIR or ~/.cache/wmbench/responses)")


def cache_command(args: argparse.Namespace) -> int:
    """Print the cache's size, or clear it."""
    cache = ResponseCache(args.dir)
    if args.action == "clear":
        print(f"cleared {cache.clear()} cached response(s) from {cache.directory}")
        return EXIT_OK
    info = cache.info()
    print(f"cache: {info.directory}\nresponses: {info.entries}\nsize: {info.bytes / 1024:.1f} KiB")
    return EXIT_OK
