"""``python -m rules.hgb check [DIR ...]``, run as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rules.hgb.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[2]

PRESET_LINES = [
    "Peace River starter force: 610 TV",
    "Northern Guard starter force: 610 TV",
    "Southern MILICIA starter force: 595 TV",
    "Southern MILICIA starter force (translated edition variant): 610 TV",
]


def run(*args: str, env_dirs: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "BLITZ_DATA_DIRS"}
    if env_dirs is not None:
        env["BLITZ_DATA_DIRS"] = env_dirs
    return subprocess.run(
        [sys.executable, "-m", "rules.hgb", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_prints_the_fingerprint_the_files_and_every_preset():
    result = run("check")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Data version 1, fingerprint {load_catalog().fingerprint}"
    assert lines[1].startswith("Loaded 28 weapons, 12 models, 3 factions, 7 squads")
    assert "  rules/hgb/data/models.toml (built-in, data version 1)" in lines
    assert [line for line in lines if line.endswith(" TV")] == PRESET_LINES
    assert lines[-1] == "OK"


def test_check_with_a_host_dir_reports_its_file_and_a_new_fingerprint(tmp_path):
    host = tmp_path / "jaguar.toml"
    host.write_text('data_version = "host-1"\n[[models]]\nid = "jaguar"\narmor = 16\n')
    result = run("check", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert f"  {host} (host, data version host-1)" in result.stdout.splitlines()
    fingerprint = load_catalog([tmp_path]).fingerprint
    assert f"fingerprint {fingerprint}" in result.stdout
    assert fingerprint != load_catalog().fingerprint


def test_check_reads_blitz_data_dirs(tmp_path):
    host = tmp_path / "jaguar.toml"
    host.write_text('data_version = "host-1"\n[[models]]\nid = "jaguar"\narmor = 16\n')
    result = run("check", env_dirs=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert str(host) in result.stdout


def test_check_exits_1_for_a_bad_dir(tmp_path):
    (tmp_path / "bad.toml").write_text(
        'data_version = "h"\n[[squads]]\nid = "north_fire_support"\ntv = -5\n'
    )
    result = run("check", str(tmp_path))
    assert result.returncode == 1
    assert "squad entry 'north_fire_support', field 'tv'" in result.stderr
    assert str(tmp_path / "bad.toml") in result.stderr


def test_check_exits_1_for_a_missing_dir(tmp_path):
    result = run("check", str(tmp_path / "nowhere"))
    assert result.returncode == 1
    assert "not a directory" in result.stderr


def test_check_exits_1_when_a_preset_no_longer_costs_its_printed_tv(tmp_path):
    (tmp_path / "tv.toml").write_text(
        'data_version = "h"\n[[squads]]\nid = "north_fire_support"\ntv = 300\n'
    )
    result = run("check", str(tmp_path))
    assert result.returncode == 1
    assert "Northern Guard starter force: 615 TV" in result.stdout
    assert "costs 615 TV, but the text prints 610 TV" in result.stderr


def test_no_command_is_a_usage_error():
    result = run()
    assert result.returncode == 2
    assert "usage: python -m rules.hgb check" in result.stderr
