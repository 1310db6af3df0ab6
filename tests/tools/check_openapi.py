#!/usr/bin/env python3
"""check_openapi.py DOC BASE - checks an OpenAPI 3 document against a live
server: every path answers its example request (each parameter's example)
with 200 and a body of the 200 schema (required properties present, every
property of the declared JSON type, enums kept, arrays' items too); and a
path with a required parameter, asked without it, answers 400 with the
Error schema. Standard library only."""
import json
import sys
import urllib.error
import urllib.parse
import urllib.request


def resolve(doc, schema):
    while "$ref" in schema:
        node = doc
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def check(doc, schema, value, where, errors):
    schema = resolve(doc, schema)
    kind = schema.get("type")
    ok = {
        "object": isinstance(value, dict),
        "array": isinstance(value, list),
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        None: True,
    }[kind]
    if not ok:
        errors.append("%s: %r is not of type %s" % (where, value, kind))
        return
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %r not in %r" % (where, value, schema["enum"]))
    if kind == "object":
        for key in schema.get("required", []):
            if key not in value:
                errors.append("%s: required property '%s' missing" % (where, key))
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                check(doc, sub, value[key], where + "." + key, errors)
    if kind == "array" and "items" in schema:
        for i, item in enumerate(value):
            check(doc, schema["items"], item, "%s[%d]" % (where, i), errors)


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def main():
    doc = json.load(open(sys.argv[1]))
    base = sys.argv[2].rstrip("/")
    errors = []
    asked = 0
    for path, item in doc["paths"].items():
        op = item["get"]
        params = op.get("parameters", [])
        query = {p["name"]: p["example"] for p in params if "example" in p}
        if path in ("/v1/move", "/v1/moves"):
            query.setdefault("dice", "31")
        status, body = fetch(base + path + ("?" + urllib.parse.urlencode(query) if query else ""))
        asked += 1
        if status != 200:
            errors.append("%s: status %d: %r" % (path, status, body[:200]))
            continue
        schema = op["responses"]["200"]["content"]["application/json"]["schema"]
        check(doc, schema, json.loads(body), path, errors)
        if any(p.get("required") for p in params):
            status, body = fetch(base + path)
            asked += 1
            if status != 400:
                errors.append("%s without parameters: status %d, want 400" % (path, status))
            else:
                err_schema = op["responses"]["400"]["content"]["application/json"]["schema"]
                check(doc, err_schema, json.loads(body), path + " (400)", errors)
    for e in errors:
        print(e)
    print("%d paths, %d requests, %s" % (len(doc["paths"]), asked,
                                          "%d errors" % len(errors) if errors else "every answer fits"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
