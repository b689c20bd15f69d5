"""Fixtures shared by every test area (each area's own live in tests/<area>/conftest.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

# Tests never reach the network; litellm must not try to fetch its price list.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.pop("WIKI_TUI_MODEL", None)

# These machines are noisy: no per-example deadline, modest example counts.
settings.register_profile("wiki", deadline=None, max_examples=150)
settings.load_profile("wiki")

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_VAULT = ROOT / "sample_vault"

pytest_plugins = ["tests.support.llm_server"]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `files` (path relative to `root` -> text or bytes) under `root`; returns root."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def make_git_repo(path: Path) -> None:
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "test@example.invalid")
    git(path, "config", "user.name", "wiki-tui tests")
    git(path, "config", "commit.gpgsign", "false")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "initial vault")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Keep the user's config folder and editor out of every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))  # state of folders not adopted
    monkeypatch.delenv("WIKI_TUI_MODEL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)


@pytest.fixture
def sample_vault(tmp_path: Path) -> Path:
    """A fresh copy of sample_vault/ (no git)."""
    dest = tmp_path / "vault"
    # a run of the app on sample_vault/ itself leaves its state there: never copy it along
    shutil.copytree(SAMPLE_VAULT, dest, ignore=shutil.ignore_patterns(".wiki-tui"))
    return dest


@pytest.fixture
def git_vault(sample_vault: Path) -> Path:
    """A copy of sample_vault/ that is a git repository with one commit."""
    make_git_repo(sample_vault)
    return sample_vault
