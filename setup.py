"""The packages are found, not listed: every folder of importer/ with an __init__.py, and the
SQL of the top-level sql/ folder shipped inside the package as importer.sql (its migrations/
and queries/ are data folders, found as namespace packages so setuptools ships them without
warnings; so are the web page's templates/ and static/). Everything else about the build is in pyproject.toml."""

from setuptools import find_namespace_packages, find_packages, setup

sql = [f"importer.{name}" for name in find_namespace_packages(include=["sql", "sql.*"])]
# The web page's templates and static files: data folders, shipped as the SQL's are.
web = find_namespace_packages(include=["importer.web.templates", "importer.web.static"])
setup(
    packages=[*find_packages(include=["importer", "importer.*"]), *sql, *web],
    package_dir={"importer.sql": "sql"},
)
