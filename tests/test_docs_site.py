"""The documentation site's build settings (issue 24 item 24): `mkdocs build --strict` with mkdocs.yml's
validation fails on a broken internal link or anchor, and a page the nav does not list (another helper's new
docs/*.md) does not break it. scripts/test.sh builds the real site; these build small ones with the same
settings, in real mkdocs processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _build(tmp_path: Path, pages: dict[str, str]) -> subprocess.CompletedProcess[str]:
    yaml = pytest.importorskip("yaml")
    pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")
    settings = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    docs = tmp_path / "docs"
    for name, text in pages.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text, encoding="utf-8")
    config = {"site_name": "t", "docs_dir": str(docs), "site_dir": str(tmp_path / "site"), "strict": True,
              "theme": settings["theme"], "markdown_extensions": settings["markdown_extensions"],
              "validation": settings["validation"], "nav": [{"Home": "index.md"}]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(tmp_path / "mkdocs.yml")],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def test_the_site_settings_are_strict_and_check_links(tmp_path):
    assert "strict: true" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    broken = _build(tmp_path / "a", {"index.md": "# Home\n\nSee [the missing page](missing.md).\n"})
    assert broken.returncode != 0 and "missing.md" in broken.stderr
    anchor = _build(tmp_path / "b", {"index.md": "# Home\n\nSee [a section](other.md#nowhere).\n",
                                     "other.md": "# Other\n"})
    assert anchor.returncode != 0 and "nowhere" in anchor.stderr


def test_a_page_outside_the_nav_does_not_break_the_build(tmp_path):
    done = _build(tmp_path, {"index.md": "# Home\n", "sweeps.md": "# Sweeps\n"})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "sweeps" / "index.html").exists()


def test_every_page_in_the_nav_exists_and_the_docs_script_step_is_there():
    yaml = pytest.importorskip("yaml")

    def pages(nav: object) -> list[str]:
        if isinstance(nav, str):
            return [nav]
        if isinstance(nav, list):
            return [p for item in nav for p in pages(item)]
        if isinstance(nav, dict):
            return [p for value in nav.values() for p in pages(value)]
        return []

    settings = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = pages(settings["nav"])
    assert len(listed) >= 15 and all((ROOT / "docs" / page).is_file() for page in listed), listed
    assert "mkdocs build --strict" in (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
