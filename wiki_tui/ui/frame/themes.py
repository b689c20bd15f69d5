"""Theme files: TOML documents whose keys are `textual.theme.Theme` fields.

Built-in themes live in the repository's `themes/` folder; the person adds their own in
`<user config dir>/themes/`. A file that does not parse or names bad colours is skipped with a
notice, so a broken theme can never stop the app.
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.theme import Theme

DEFAULT_THEME = "wiki-dark"
BUILTIN_THEMES_DIR = Path(__file__).resolve().parents[3] / "themes"

_FIELDS = {f.name: f for f in dataclasses.fields(Theme)}
_COLOUR_FIELDS = ("primary", "secondary", "warning", "error", "success", "accent",
                  "foreground", "background", "surface", "panel", "boost")


class ThemeFileError(Exception):
    pass


def parse_theme(text: str, source: str = "<theme>") -> Theme:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ThemeFileError(f"{source}: not valid TOML ({exc})") from exc
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise ThemeFileError(f"{source}: unknown keys {', '.join(unknown)}")
    for required in ("name", "primary"):
        if not isinstance(data.get(required), str) or not data[required].strip():
            raise ThemeFileError(f"{source}: '{required}' is required (a string)")
    for key in _COLOUR_FIELDS:
        if key in data:
            _check_colour(data[key], f"{source}: {key}")
    if "dark" in data and not isinstance(data["dark"], bool):
        raise ThemeFileError(f"{source}: 'dark' must be true or false")
    for key in ("luminosity_spread", "text_alpha"):
        if key in data and not isinstance(data[key], (int, float)):
            raise ThemeFileError(f"{source}: '{key}' must be a number")
    variables = data.get("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
        raise ThemeFileError(f"{source}: [variables] must map names to strings")
    try:
        return Theme(**data)
    except (TypeError, ValueError) as exc:
        raise ThemeFileError(f"{source}: {exc}") from exc


def _check_colour(value: object, where: str) -> None:
    if not isinstance(value, str):
        raise ThemeFileError(f"{where} must be a colour string")
    try:
        Color.parse(value)
    except ColorParseError as exc:
        raise ThemeFileError(f"{where}: {value!r} is not a colour") from exc


def load_theme_dir(folder: Path) -> tuple[list[Theme], list[str]]:
    """Every valid theme in `folder` (sorted by file name) and a notice per broken file."""
    themes: list[Theme] = []
    notices: list[str] = []
    if not folder.is_dir():
        return themes, notices
    for path in sorted(folder.glob("*.toml")):
        try:
            text = path.read_text(encoding="utf-8")
            themes.append(parse_theme(text, path.name))
        except UnicodeDecodeError:
            notices.append(f"theme {path.name} skipped: not UTF-8 text")
        except OSError as exc:
            notices.append(f"theme {path.name} skipped: {exc.strerror}")
        except ThemeFileError as exc:
            notices.append(f"theme skipped: {exc}")
    return themes, notices


def load_themes(user_dir: Path | None) -> tuple[list[Theme], list[str]]:
    """Built-in themes, then the person's (a user theme may replace a built-in by name)."""
    themes, notices = load_theme_dir(BUILTIN_THEMES_DIR)
    if user_dir is not None:
        user_themes, user_notices = load_theme_dir(user_dir)
        themes.extend(user_themes)
        notices.extend(user_notices)
    return themes, notices

