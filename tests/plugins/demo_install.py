"""The demo plug-in (``tests/plugins/wmbench_demo_plugin``) installed for a test module only.

:func:`installed_demo_plugin` pip-installs it, once per test session, into a temporary folder (``pip install
--target``: no deps, no build isolation, no index; a few seconds), never into the user's ``.venv`` (where its
names would then show up in user-facing lists and errors), and puts that folder on ``sys.path`` until the
context ends: entry points are found through the ``.dist-info`` there, as for any installed package.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

PLUGIN_DIR = Path(__file__).resolve().parent / "wmbench_demo_plugin"
DISTRIBUTION = "wmbench-demo-plugin"


#: the folder the plug-in was pip-installed into by the first module of this session that asked for it: later
#: modules put the same folder on ``sys.path`` instead of running pip again (the installed files are read-only
#: to the tests; each module still gets the plug-in only for its own duration)
_SESSION_INSTALL: list[Path] = []


@contextmanager
def installed_demo_plugin(target: Path, build: Path) -> Iterator[str]:
    """The plug-in installed into ``target`` (pip builds in ``build``) and importable; yields its distribution.

    pip runs once per test session: a later call reuses the first call's install folder (``target`` is then
    left empty)."""
    if _SESSION_INSTALL and _SESSION_INSTALL[0].is_dir():
        target = _SESSION_INSTALL[0]
    else:
        _install(target, build)
        _SESSION_INSTALL[:] = [target]
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    try:
        yield DISTRIBUTION
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m.split(".")[0] == "wmbench_demo_plugin"]:
            del sys.modules[name]
        importlib.invalidate_caches()


def _install(target: Path, build: Path) -> None:
    tools = pytest.importorskip("setuptools", reason="building the demo plugin needs setuptools>=68 ('dev' extra)")
    if int(tools.__version__.split(".")[0]) < 68:
        pytest.skip(f"building the demo plugin needs setuptools>=68 (the 'dev' extra), found {tools.__version__}")
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
               "--no-index", "--target", str(target), str(PLUGIN_DIR)]
    # pip builds in a copy of the plugin folder, so the checkout gets no build/ or egg-info litter
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=build)
    if result.returncode != 0:
        pytest.fail(f"installing the demo plugin failed:\n{result.stdout}\n{result.stderr}")
