"""The version of the tool: the one place it is written (the build reads it here, and
``importer.__version__`` is this)."""

__version__ = "0.1.0"
