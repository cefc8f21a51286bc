"""A small JSON Schema validator: the keywords sgsdsl's own schemas use (schemas/simulate.schema.json).

`sgsdsl report` reads a results file that anyone could have written; it is checked against the schema
`simulate --json` promises before a chart is drawn from it, so a file of the wrong shape is one error
naming the place and what is wrong. jsonschema would do, but it is a test extra only (tests/test_report.py
checks that both agree); these few keywords do not justify a dependency of every install:
type, const, enum, required, properties, additionalProperties, items, prefixItems, minItems, maxItems,
minimum, maximum, allOf, oneOf and local $ref. A schema with any other keyword is refused (KEYWORDS).
"""

from __future__ import annotations

import json
from pathlib import Path

SCHEMAS = Path(__file__).parent / "schemas"
KEYWORDS = {"type", "const", "enum", "required", "properties", "additionalProperties", "items", "prefixItems",
            "minItems", "maxItems", "minimum", "maximum", "allOf", "oneOf", "$ref",
            # annotations: they constrain nothing
            "$schema", "$id", "$defs", "title", "description"}


def load(name: str = "simulate") -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def _is(kind: str, v) -> bool:
    if kind == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if kind == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}[kind] is type(v)


def _at(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path) or "the top level"


def _shown(v) -> str:
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def errors(value, schema: dict, root: dict | None = None, path: tuple = ()):
    """Every place where `value` breaks `schema` (a generator of messages; the first is enough to refuse)."""
    root = root if root is not None else schema
    unknown = set(schema) - KEYWORDS
    if unknown:
        raise ValueError(f"the schema uses {sorted(unknown)}, which this validator does not know")
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/"):
            raise ValueError(f"only local references: {ref}")
        target = root
        for part in ref[2:].split("/"):
            target = target[part]
        yield from errors(value, target, root, path)
    where = _at(path)
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(k, value) for k in kinds):
            yield f"at {where}: {_shown(value)} is not {' or '.join(kinds)}"
            return
    if "const" in schema and value != schema["const"]:
        yield f"at {where}: {_shown(value)} is not {_shown(schema['const'])}"
    if "enum" in schema and value not in schema["enum"]:
        yield f"at {where}: {_shown(value)} is not one of {', '.join(map(_shown, schema['enum']))}"
    if _is("number", value):
        if "minimum" in schema and value < schema["minimum"]:
            yield f"at {where}: {value} is less than {schema['minimum']}"
        if "maximum" in schema and value > schema["maximum"]:
            yield f"at {where}: {value} is more than {schema['maximum']}"
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                yield f"at {where}: the field \"{key}\" is missing"
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, v in value.items():
            if key in props:
                yield from errors(v, props[key], root, path + (key,))
            elif extra is False:
                yield f"at {where}: a field \"{key}\" that the schema does not have"
            elif isinstance(extra, dict):
                yield from errors(v, extra, root, path + (key,))
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            yield f"at {where}: {len(value)} items, fewer than {schema['minItems']}"
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            yield f"at {where}: {len(value)} items, more than {schema['maxItems']}"
        first = schema.get("prefixItems", [])
        for i, v in enumerate(value):
            if i < len(first):
                yield from errors(v, first[i], root, path + (i,))
            elif "items" in schema:
                yield from errors(v, schema["items"], root, path + (i,))
    for sub in schema.get("allOf", ()):
        yield from errors(value, sub, root, path)
    if "oneOf" in schema:
        fits = sum(not any(True for _ in errors(value, sub, root, path)) for sub in schema["oneOf"])
        if fits != 1:
            yield f"at {where}: {_shown(value)} fits {fits} of the {len(schema['oneOf'])} shapes allowed there, not one"


def first_error(value, schema: dict | None = None) -> str | None:
    return next(errors(value, schema if schema is not None else load()), None)
