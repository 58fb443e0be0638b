"""Configuration: built-in defaults laid under the user's ``config.toml``, and the store in use.

The config file: an explicit path (``--config``), ``READINGLIST_CONFIG``, the nearest
``config.toml`` found walking up from the current folder (as git finds its repository), then the
user's config directory (platformdirs). Paths in a config file are relative to that file.

The store, as git finds a repository: ``--store``; else walking up from the current folder, the
first folder with a ``config.toml`` (its ``[store] path``) or a ``library/`` store; else
``READINGLIST_STORE``; else the ``[store] path`` of an explicit or user config file; else the
user's default store (``library`` in platformdirs' user data folder). The walk stops below the
folders listed in ``READINGLIST_CEILING_DIRECTORIES`` (``:``-separated, as git's ceiling).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ConfigError
# where the store is (known without this module when no config file names it: see .project)
from .project import CEILING_ENV as CEILING_ENV, CONFIG_ENV, STORE_ENV as STORE_ENV, readable_file, find_project, store_named


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
    fallback_tag: str  # the tag of an abstract that no topic fits ("" for none)
    duplicate_threshold: float
    ambiguity_margin: float
    anonymous_author: str  # BibTeX placeholder author for papers without authors ("" for none)
    #: the title generator plugin ([titles] generator; see readinglist.convert.generators)
    title_generator: str = "builtin"
    data: dict = field(repr=False, default_factory=dict)  # the merged raw tables
    #: why this store: "--store", "project" (found walking up), READINGLIST_STORE, "config", "user default"
    store_from: str = "config"

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
    except RecursionError:
        raise ConfigError(f"{path}: not a config file: arrays or tables nested too deeply") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None


def default_data() -> dict:
    # read beside this module (package data is installed as files), which is cheaper on every
    # command's start-up than importlib.resources
    with open(Path(__file__).with_name("data") / "config.toml", "rb") as fh:
        return tomllib.load(fh)


def user_config_file() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("readinglist")) / "config.toml"


def user_store() -> Path:
    """The store used outside any project when nothing else names one."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("readinglist")) / "library"


def find_config(explicit: str | os.PathLike | None = None) -> Path | None:
    """The config file to use, or None when there is none (defaults only)."""
    if explicit:
        return Path(explicit)
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env)
    project = find_project()
    if project is not None and readable_file(project / "config.toml"):
        return project / "config.toml"
    user = user_config_file()
    return user if readable_file(user) else None


def load_config(path: str | os.PathLike | None = None, *, store: str | os.PathLike | None = None) -> Config:
    """Load the configuration and find the store (see the module's docstring for the order);
    ``store`` (``--store``) beats everything."""
    explicit = path or os.environ.get(CONFIG_ENV)
    project = None if explicit else find_project()
    cfg_path = find_config(path)
    data = default_data()
    root = project or Path.cwd()
    if cfg_path is not None:
        data = _merge(data, _read(cfg_path))
        root = cfg_path.absolute().parent
    store, store_from = store_named(project, store)
    if store_from is None:  # a config file's [store] path, else the user's default store
        if project is not None:
            store_from = "project"  # (its config.toml)
        elif cfg_path is not None and (explicit or "path" in (_read(cfg_path).get("store") or {})):
            store_from = "config"
        else:
            store, store_from = user_store(), "user default"
    return from_data(data, root=root, path=cfg_path, store=store, store_from=store_from)


def from_data(data: dict, *, root: Path, path: Path | None = None, store=None, store_from: str = "config") -> Config:
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

    store_resolved = Path(store) if store else root / get("store", "path", str)
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
        fallback_tag=get("tags", "fallback_tag", str).strip(),
        duplicate_threshold=float(get("matching", "duplicate_threshold", (int, float))),
        ambiguity_margin=float(get("matching", "ambiguity_margin", (int, float))),
        anonymous_author=get("export", "anonymous_author", str),
        title_generator=get("titles", "generator", str),
        data=data,
        store_from=store_from,
    )


def default_config() -> Config:
    """The built-in defaults alone, with paths relative to the current folder."""
    return from_data(default_data(), root=Path.cwd())
