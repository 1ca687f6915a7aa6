"""importer: load Excel workbooks into PostgreSQL as validated form data, exactly once."""

__version__ = "0.1.0"
