"""What every command shares: settings (loaded once, validated) and the database handle."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.text import Text

from importer.cli.output import stderr_console
from importer.config import Settings, load_settings

if TYPE_CHECKING:
    # The facade (and with it the database layer) loads when a command first needs it:
    # `importer --version` and `--help` stay light.
    from importer.api import Importer
    from importer.database import Database


@dataclass
class AppState:
    config_path: Path | None = None
    debug: bool = False
    started: float = field(default_factory=time.monotonic)  # the command's start (monotonic)
    _settings: Settings | None = None
    _warned: bool = False
    _importer: Importer | None = field(default=None, repr=False)

    def settings(self, overrides: dict[str, object] | None = None) -> Settings:
        """Settings with this command's flag overrides; loaded (and validated) once. Their
        warnings (a mistyped IMPORTER_* variable, a deprecated key) go to stderr, once."""
        if self._settings is None or overrides:
            self._settings = load_settings(self.config_path, overrides=overrides)
            if not self._warned:
                self._warned = True
                for warning in self._settings.warnings:
                    stderr_console().print(Text.assemble(("warning:", "yellow"), " ", warning))
        return self._settings

    def db(self) -> Database:
        """The database with its schema made current (once per process)."""
        return self.importer().database

    def importer(self) -> Importer:
        """The services every command calls (one per process)."""
        if self._importer is None:
            from importer.api import Importer

            self._importer = Importer(settings=self.settings())
        return self._importer


def state(ctx: typer.Context) -> AppState:
    obj = ctx.find_root().obj
    assert isinstance(obj, AppState)
    return obj
