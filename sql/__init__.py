"""importer's SQL: migrations/ (applied in order) and queries/ (named statements).

This top-level folder ships inside the package as ``importer.sql`` (see pyproject.toml).
"""
