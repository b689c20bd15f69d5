"""`wiki-tui [VAULT]`, `wiki-tui open [VAULT]` and `wiki-tui demo`: the full-screen app.

Nothing here imports litellm or the app at module level: `wiki-tui --help` and the other
commands stay fast, and the app itself imports only what its first paint needs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import time
from pathlib import Path

from wiki_tui.cli.common import CliError, console, require_vault


def register(subparsers) -> None:
    open_parser = subparsers.add_parser(
        "open", help="open the app on a vault (the default command)",
        description="Open the full-screen app on VAULT (default: --vault or the current folder).")
    open_parser.add_argument("path", nargs="?", type=Path, default=None, metavar="VAULT")
    _add_app_flags(open_parser)
    open_parser.set_defaults(func=run_open)

    demo = subparsers.add_parser(
        "demo", help="open the app on a fresh copy of the sample vault",
        description="Copy the sample vault to a scratch folder, make it a git repository, "
                    "and open the app there.")
    demo.add_argument("--dir", type=Path, default=None,
                      help="where to put the copy (default: ~/.local/share/wiki-tui/demo-TIME)")
    _add_app_flags(demo)
    demo.set_defaults(func=run_demo)


def _add_app_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", default=None,
                        help="litellm model string (default: config, else the offline engine)")
    parser.add_argument("--api-base", default=None,
                        help="the model server's URL (default: WIKI_TUI_API_BASE, config)")
    parser.add_argument("--no-open", "--print", dest="no_open", action="store_true",
                        help="prepare and print the vault folder, but do not start the app")


def _vault_folder(path: Path | None, args) -> Path:
    root = Path(path or getattr(args, "vault", None) or Path.cwd()).expanduser()
    if not root.exists():
        raise CliError(f"no vault at {root}: the folder does not exist "
                       "(`wiki-tui init DIR` makes one, `wiki-tui demo` opens a sample)", 2)
    if not root.is_dir():
        raise CliError(f"no vault at {root}: not a folder", 2)
    return require_vault(root.resolve())


def run_open(args) -> int:
    root = _vault_folder(args.path, args)
    if args.no_open:
        console.print(str(root))
        return 0
    return _run_app(root, args)


def _run_app(root: Path, args, *, demo: bool = False) -> int:
    from wiki_tui.ui.app import WikiApp

    settings = None
    if args.api_base:  # else the app resolves them, showing a bad config as a notice
        from wiki_tui.agent.config import ConfigError, resolve_settings

        try:
            settings = resolve_settings(root, args.model, args.api_base)
        except ConfigError as exc:
            raise CliError(str(exc), 2) from None
    WikiApp(root, model=args.model, settings=settings, demo=demo).run()
    return 0


# -- demo ----------------------------------------------------------------------------------

def sample_vault_dir() -> Path:
    """sample_vault/ beside the package (a source checkout or an editable install)."""
    package_root = Path(__file__).resolve().parents[2]
    for candidate in (package_root / "sample_vault", Path.cwd() / "sample_vault"):
        if (candidate / "AGENTS.md").is_file():
            return candidate
    raise CliError("the sample vault was not found (expected sample_vault/ beside the "
                   "wiki_tui package)", 2)


def default_demo_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(base) / "wiki-tui" / f"demo-{stamp}"


def make_demo_vault(dest: Path) -> Path:
    """Copy the sample vault to `dest` (new or empty) and commit it as a fresh git repository."""
    source = sample_vault_dir()
    if dest.exists() and any(dest.iterdir()):
        raise CliError(f"{dest} is not empty; choose another --dir", 2)
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source, dest, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".wiki-tui", ".git", "__pycache__"))
    _git(dest, "init", "-q", "-b", "main")
    # A local identity only when none is configured, so the first commit cannot fail.
    for key, value in (("user.name", "wiki-tui demo"), ("user.email", "demo@wiki-tui.invalid")):
        if subprocess.run(["git", "config", key], cwd=dest, capture_output=True).returncode:
            _git(dest, "config", key, value)
    _git(dest, "add", "-A")
    _git(dest, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "wiki-tui demo vault")
    return dest


def _git(cwd: Path, *args: str) -> None:
    try:
        subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    except FileNotFoundError as exc:
        raise CliError("git is not installed; the demo needs it") from exc
    except subprocess.CalledProcessError as exc:
        raise CliError(f"git {' '.join(args)} failed: {exc.stderr.strip()}") from exc


def run_demo(args) -> int:
    dest = make_demo_vault((args.dir or default_demo_dir()).expanduser().resolve())
    console.print(f"demo vault: {dest}")
    if args.no_open:
        return 0
    return _run_app(dest, args, demo=True)
