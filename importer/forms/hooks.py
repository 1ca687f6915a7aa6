"""A form's Python hook (``hook = "mypackage.rules:clean_row"``): a function given each row's
typed values that returns them (changed or not) or raises importer.errors.RowError.

A stored form must never make a process import code by itself: the hook's module is
imported only where this host's settings allow it (``[forms] hooks_allowed``, a list of
modules or packages); anywhere else the form is refused with a line saying so.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import cast

from importer.errors import FormError
from importer.forms.definition import Form
from importer.forms.stages import Hook


def allowed(module: str, allow: Sequence[str]) -> bool:
    """A module is allowed when it, or a package it is in, is listed."""
    return any(module == a or module.startswith(a + ".") for a in allow)


def load_hook(form: Form, allow: Sequence[str]) -> Hook | None:
    """The form's hook, imported; None when it has none. FormError when this host does not
    allow its module, or it cannot be imported or is not a function."""
    if form.rules.hook is None:
        return None
    module_name, _, function = form.rules.hook.partition(":")
    if not allowed(module_name, allow):
        raise FormError(
            f"form {form.name!r} runs hook {form.rules.hook!r}, and this host does not allow "
            f"module {module_name!r}: add it to [forms] hooks_allowed in the settings "
            "(or IMPORTER_FORMS_HOOKS_ALLOWED)",
            form=form.name,
        )
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise FormError(
            f"form {form.name!r}: hook module {module_name!r} cannot be imported "
            f"({type(exc).__name__}: {exc})",
            form=form.name,
        ) from None
    found = getattr(module, function, None)
    if not callable(found):
        raise FormError(
            f"form {form.name!r}: hook {form.rules.hook!r}: {module_name} has no function "
            f"{function!r}",
            form=form.name,
        )
    return cast(Hook, found)
