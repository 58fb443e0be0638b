"""Configuration: built-in defaults laid under the user's ``config.toml``.

Lookup order for the file: an explicit path, ``READINGLIST_CONFIG``, ``./config.toml``, then the
user's config directory (platformdirs). Paths in a config file are relative to that file.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ConfigError

CONFIG_ENV = "READINGLIST_CONFIG"
STORE_ENV = "READINGLIST_STORE"


@dataclass(frozen=True)
class Config:
    path: Path | None  # the config file laid over the defaults, if any
    root: Path  # folder that relative paths are resolved against
    store: Path
    seeds: Path
    exports: Path
    key_pattern: str
    venues: dict[str, str]
    taxonomy: dict[str, tuple[str, ...]]
    max_tags: int
    min_score: float  # points a topic tag needs (see [tags] in data/config.toml)
    duplicate_threshold: float
    ambiguity_margin: float
    anonymous_author: str  # BibTeX placeholder author for papers without authors ("" for none)
    data: dict = field(repr=False, default_factory=dict)  # the merged raw tables

    def venue_name(self, venue: str | None) -> str | None:
        """Full name of a venue (case-insensitive lookup), or the short name itself."""
        if not venue:
            return None
        for short, full in self.venues.items():
            if short.lower() == venue.lower():
                return full
        return venue


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _read(path: Path) -> dict:
    from .store.atomic import describe, read_bounded

    try:
        data = read_bounded(path, limit=4 << 20)
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file: {describe(exc)}") from None
    try:
        return tomllib.loads(data.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None


def _is_file(path: Path) -> bool:
    """``path.is_file()``, but False where a folder on the way cannot be read (an unreadable
    ~/.config must not break every command: the defaults apply)."""
    try:
        return path.is_file()
    except OSError:
        return False


def default_data() -> dict:
    # read beside this module (package data is installed as files), which is cheaper on every
    # command's start-up than importlib.resources
    with open(Path(__file__).with_name("data") / "config.toml", "rb") as fh:
        return tomllib.load(fh)


def find_config(explicit: str | os.PathLike | None = None) -> Path | None:
    """The config file to use, or None when there is none (defaults only)."""
    if explicit:
        return Path(explicit)
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env)
    local = Path("config.toml")
    if _is_file(local):
        return local
    from platformdirs import user_config_dir

    user = Path(user_config_dir("readinglist")) / "config.toml"
    return user if _is_file(user) else None


def load_config(path: str | os.PathLike | None = None, *, store: str | os.PathLike | None = None) -> Config:
    """Load the configuration; ``store`` (e.g. ``--store``) beats ``READINGLIST_STORE`` and the file."""
    cfg_path = find_config(path)
    data = default_data()
    root = Path.cwd()
    if cfg_path is not None:
        data = _merge(data, _read(cfg_path))
        root = cfg_path.resolve().parent
    return from_data(data, root=root, path=cfg_path, store=store)


def from_data(data: dict, *, root: Path, path: Path | None = None, store=None) -> Config:
    def table(name: str) -> dict:
        value = data.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{path or 'config'}: [{name}] must be a table")
        return value

    # every setting has its default in data/config.toml (laid under every config): no second
    # copy of the defaults here
    def get(tbl: str, key: str, kind):
        value = table(tbl).get(key)
        if value is None or not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise ConfigError(f"{path or 'config'}: [{tbl}] {key} must be {getattr(kind, '__name__', kind)}, got {value!r}")
        return value

    store_path = store or os.environ.get(STORE_ENV)
    store_resolved = Path(store_path) if store_path else root / get("store", "path", str)
    taxonomy_raw = table("tags").get("taxonomy", {})
    taxonomy: dict[str, tuple[str, ...]] = {}
    for tag, phrases in taxonomy_raw.items():
        if isinstance(phrases, str):
            phrases = [phrases]
        if not isinstance(phrases, list) or not all(isinstance(p, str) for p in phrases):
            raise ConfigError(f"{path or 'config'}: [tags.taxonomy] {tag} must be a list of phrases")
        taxonomy[tag] = tuple(phrases)
    venues = {str(k): str(v) for k, v in table("venues").items()}
    key_pattern = get("keys", "pattern", str)
    from .convert.keys import compile_pattern

    try:
        compile_pattern(key_pattern)
    except ValueError as exc:
        raise ConfigError(f"{path or 'config'}: [keys] pattern {key_pattern!r}: {exc}") from None
    return Config(
        path=path,
        root=root,
        store=store_resolved,
        seeds=root / get("build", "seeds", str),
        exports=root / get("build", "exports", str),
        key_pattern=key_pattern,
        venues=venues,
        taxonomy=taxonomy,
        max_tags=get("tags", "max_tags", int),
        min_score=float(get("tags", "min_score", (int, float))),
        duplicate_threshold=float(get("matching", "duplicate_threshold", (int, float))),
        ambiguity_margin=float(get("matching", "ambiguity_margin", (int, float))),
        anonymous_author=get("export", "anonymous_author", str),
        data=data,
    )


def default_config() -> Config:
    """The built-in defaults alone, with paths relative to the current folder."""
    return from_data(default_data(), root=Path.cwd())
