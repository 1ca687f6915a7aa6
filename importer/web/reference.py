"""The HTTP API reference of the documentation, generated from the OpenAPI document the
server serves (/api/openapi.json), so it cannot drift from the routes:

    python -m importer.web.reference > docs/reference/http-api.md

A test regenerates it and compares it with the committed page.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from importer.web.openapi import openapi_document

INTRO = """# HTTP API reference

The JSON API of `importer serve`, for applications. Every request carries an API token
(`importer users token EMAIL`) as `Authorization: Bearer TOKEN`; a token sees what its
account sees (a sender: its own imports of the forms granted to it). An error is a JSON
object `{"code": "...", "message": "..."}`: `code` is stable, `message` is one line for a
person. An import that is not yours is answered exactly as one that does not exist (404).
Statuses are the command line's: `pending`, `running`, `succeeded`,
`partially_succeeded`, `failed`, `cancelled`, `reverted`.

This page is generated from the OpenAPI document the server serves at
`/api/openapi.json` (`python -m importer.web.reference`).
"""


def _schema_text(schema: dict[str, Any]) -> str:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        return f"[{name}](#{name.lower()})"
    return f"`{schema.get('type', 'object')}`"


def _operation(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    lines = [f"## {method.upper()} `{path}`", "", operation.get("summary", ""), ""]
    if operation.get("description"):
        lines += [operation["description"], ""]
    parameters = operation.get("parameters", [])
    if parameters:
        lines += ["| parameter | in | required | what |", "|---|---|---|---|"]
        for p in parameters:
            required = "yes" if p.get("required") else "no"
            what = p.get("description", "").replace("|", "\\|")
            lines.append(f"| `{p['name']}` | {p['in']} | {required} | {what} |")
        lines.append("")
    body = operation.get("requestBody")
    if body:
        for kind, content in body.get("content", {}).items():
            lines += [f"Body: `{kind}`, {_schema_text(content.get('schema', {}))}", ""]
    lines += ["| status | answer |", "|---|---|"]
    for status, answer in operation.get("responses", {}).items():
        described = answer.get("description", "").replace("|", "\\|")
        for content in answer.get("content", {}).values():
            described += f" ({_schema_text(content.get('schema', {}))})"
        lines.append(f"| {status} | {described} |")
    return [*lines, ""]


def _schema(name: str, schema: dict[str, Any]) -> list[str]:
    lines = [f"### {name}", ""]
    if schema.get("description"):
        lines += [schema["description"], ""]
    properties = schema.get("properties", {})
    if properties:
        required = set(schema.get("required", []))
        lines += ["| field | type | required | what |", "|---|---|---|---|"]
        for field, spec in properties.items():
            kind = spec.get("type", "")
            kind = "/".join(kind) if isinstance(kind, list) else kind
            what = spec.get("description", "").replace("|", "\\|")
            yes = "yes" if field in required else "no"
            lines.append(f"| `{field}` | {kind} | {yes} | {what} |")
        lines.append("")
    else:
        lines += ["```json", json.dumps(schema, indent=2), "```", ""]
    return lines


def markdown() -> str:
    document = openapi_document()
    lines = [INTRO]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            lines += _operation(path, method, operation)
    schemas = document.get("components", {}).get("schemas", {})
    if schemas:
        lines += ["## Objects", ""]
        for name, schema in schemas.items():
            lines += _schema(name, schema)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown())
