"""The wmbench CLI: list/show, run end to end, clear usage errors, no secrets on disk."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from wmbench.harness.cli.base import COMMANDS, load
from wmbench.harness.cli.main import build_parser, main
from wmbench.harness.cli.options import default_out_dir, parse_options
from wmbench.scenarios import all_scenarios


def test_every_subcommand_is_registered_in_the_table():
    assert {"run", "list", "show", "serve", "export-onnx"} <= set(COMMANDS)
    build_parser()  # every configure() works


def test_every_lazy_command_is_named_and_described_as_its_module_says():
    lazy = [c for c in COMMANDS.values() if c.source]
    assert {"video", "export", "verify", "fork"} <= {c.name for c in lazy}
    for command in lazy:
        loaded = load(command.source)
        assert (command.name, command.help) == (loaded.name, loaded.help), command.source


#: modules of subcommands that ``wmbench --help`` and ``wmbench list`` must not import
_COMMAND_MODULES = ("run_command", "live_command", "validity_command", "vision_commands", "export_command",
                    "counterfactual_command", "frontier_command", "sweep_command", "bench", "scenario_cards")


def test_a_command_imports_only_its_own_module():
    """``main`` builds only the named command's arguments, and lazy commands import their module when used, so
    ``wmbench --help`` and ``wmbench list`` import no subcommand module and ``wmbench run --help`` no other."""
    probe = ("import contextlib, io, sys\n"
             "from wmbench.harness.cli.main import main\n"
             "def loaded():\n"
             "    return sorted(m.rpartition('.')[2] for m in sys.modules if m.startswith('wmbench.harness.cli.'))\n"
             "for argv in (['--help'], ['list'], ['run', '--help']):\n"
             "    with contextlib.redirect_stdout(io.StringIO()):\n"
             "        try:\n"
             "            main(argv)\n"
             "        except SystemExit:\n"
             "            pass\n"
             "    print(' '.join(argv), *loaded(), sep=',')\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    seen = {line.split(",")[0]: set(line.split(",")[1:]) for line in done.stdout.splitlines()}
    assert not seen["--help"] & set(_COMMAND_MODULES), seen["--help"]
    assert not seen["list"] & set(_COMMAND_MODULES), seen["list"]
    assert "run_command" in seen["run --help"] and not (seen["run --help"] & set(_COMMAND_MODULES)) - {
        "run_command"}, seen["run --help"]


def test_list_prints_every_scenario(capsys):
    assert main(["list"]) == 0
    rows = capsys.readouterr().out.strip().splitlines()
    assert len(rows) == len(all_scenarios()) == 50
    for row, record in zip(rows, all_scenarios()):
        assert row.startswith(f"{record.id}  {record.category}  {record.name}")
        assert row.split()[-2:] == [record.mode, record.difficulty]


def test_list_filters_by_category(capsys):
    assert main(["list", "--category", "C03"]) == 0
    ids = [row.split()[0] for row in capsys.readouterr().out.strip().splitlines()]
    assert ids == ["S11", "S12", "S13", "S14", "S15"]


def test_show_prints_the_card(capsys):
    assert main(["show", "s12"]) == 0
    out = capsys.readouterr().out
    record = next(s for s in all_scenarios() if s.id == "S12")
    assert out.startswith(record.card) and "pillar P2 · mode bench" in out


@pytest.mark.parametrize("argv, needle", [
    (["show", "S99"], "unknown scenario"),
    (["list", "--category", "C42"], "C42"),
    (["run", "--scenarios", "S99", "--brain", "null"], "S99"),
    (["run", "--scenarios", "S01", "--brain", "no-such-brain"], "no-such-brain"),
    (["run", "--scenarios", "S01", "--brain", "null", "--body", "hexapod"], "hexapod"),
    (["run", "--scenarios", "S01", "--brain", "null", "--option", "oops"], "KEY=VALUE"),
    (["run", "--scenarios", "S01", "--brain", "null", "--seed-list", "1,x"], "bad seed"),
])
def test_user_mistakes_exit_2_with_a_message_and_no_traceback(argv, needle, capsys, tmp_path):
    assert main([*argv, "--out", str(tmp_path / "o")] if argv[0] == "run" else argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err and err.startswith(f"wmbench {argv[0]}: error:")


def test_bad_argument_is_argparse_exit_2(capsys):
    assert main(["run", "--seeds", "many"]) == 2
    assert "invalid int value" in capsys.readouterr().err


def test_parse_options_reads_json_values_and_keeps_text():
    items = ["temperature=0", 'stop=["x"]', "api_key=sk-abc", "flag=true", "url=http://h:1/v1"]
    assert parse_options(items) == {
        "temperature": 0, "stop": ["x"], "api_key": "sk-abc", "flag": True, "url": "http://h:1/v1"}


def test_default_out_dir_is_safe_and_timestamped():
    out = default_out_dir("openai/gpt-4o:mini", "smpl", now=datetime(2026, 3, 1, 12, 0, 5))
    assert out == Path("runs/openai_gpt-4o_mini-smpl-20260301-120005")


def test_run_writes_scores_and_prints_the_summary(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "--scenarios", "S01", "--brain", "null", "--out", str(out), "--workers", "1",
                 "--no-progress"]) == 0
    printed = capsys.readouterr().out
    scores = json.loads((out / "scores.json").read_text())
    assert "WM Score" in printed and str(out / "scores.json") in printed
    assert scores["run"]["episodes"] == 5 and (out / "episodes.jsonl").exists()  # default: seed 0 + 4 drawn
    lines = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    played = [0, *sorted(scores["split"]["test_seeds"])]
    assert [(line["seed"], line["instance"]["number"]) for line in lines] == [(s, s) for s in played]


def test_no_api_key_is_written_to_the_run_directory(tmp_path, monkeypatch, capsys):
    pytest.importorskip("openai")
    env_key, option_key = "sk-envkey-0123456789abcdef", "sk-optkey-0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", env_key)
    out = tmp_path / "run"
    # an endpoint nobody listens on: every decision fails fast and is recorded; the run stops early (exit 1)
    # but still writes its files
    options = [f"api_key={option_key}", "base_url=http://127.0.0.1:9/v1", "max_retries=0", "timeout_s=2",
               "cache=false"]
    option_args = [arg for option in options for arg in ("--option", option)]
    code = main(["run", "--scenarios", "S01", "--brain", "openai/test-model", "--out", str(out),
                 "--workers", "1", "--no-progress", *option_args])
    err = capsys.readouterr().err
    assert code == 1 and "cannot reach http://127.0.0.1:9/v1" in err
    assert env_key not in err and option_key not in err
    files = [p for p in out.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"run.json", "scores.json"}
    for path in files:
        data = path.read_bytes()
        assert env_key.encode() not in data and option_key.encode() not in data, path
    run = json.loads((out / "run.json").read_text())
    assert run["brain_options"]["api_key"] == "<redacted>"
    assert run["brain_options"]["base_url"] == "http://127.0.0.1:9/v1"
    # the episode played against a dead endpoint is not a result: not kept, so a rerun plays it again
    assert not (out / "episodes.jsonl").exists() or not (out / "episodes.jsonl").read_text().strip()
