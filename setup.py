"""The packages are found, not listed: every folder of importer/ with an __init__.py, and the
SQL of the top-level sql/ folder shipped inside the package as importer.sql (its migrations/
and queries/ are data folders, found as namespace packages so setuptools ships them without
warnings). Everything else about the build is in pyproject.toml."""

from setuptools import find_namespace_packages, find_packages, setup

sql = [f"importer.{name}" for name in find_namespace_packages(include=["sql", "sql.*"])]
setup(
    packages=[*find_packages(include=["importer", "importer.*"]), *sql],
    package_dir={"importer.sql": "sql"},
)
