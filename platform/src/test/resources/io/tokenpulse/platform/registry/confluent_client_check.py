"""Drives confluent_kafka's SchemaRegistryClient through every call it has against a registry URL.

Used by ConfluentPythonClientIT: prints one JSON object with what each call returned, so the Java
side asserts on answers produced by a client nobody in TokenPulse wrote.
"""
import json
import sys

from confluent_kafka.schema_registry import Schema, SchemaRegistryClient, SchemaRegistryError


def record(fields):
    return Schema(json.dumps({"type": "record", "name": "Row", "namespace": "check", "fields": fields}), "AVRO")


def error_code(call):
    try:
        call()
    except SchemaRegistryError as error:
        return error.error_code
    return None


def main(url):
    client = SchemaRegistryClient({"url": url})
    v1 = record([{"name": "id", "type": "string"}])
    v2 = record([{"name": "id", "type": "string"}, {"name": "n", "type": "int", "default": 0}])
    incompatible = record([{"name": "id", "type": "string"}, {"name": "m", "type": "int"}])
    out = {}
    out["id_v1"] = client.register_schema("py-value", v1)
    out["id_v1_other_subject"] = SchemaRegistryClient({"url": url}).register_schema("py-other-value", v1)
    out["id_v2"] = client.register_schema("py-value", v2)
    looked_up = client.lookup_schema("py-value", v1)
    out["lookup"] = [looked_up.subject, looked_up.version, looked_up.schema_id]
    latest = client.get_latest_version("py-value")
    out["latest"] = [latest.version, latest.schema_id]
    out["version_1_id"] = client.get_version("py-value", 1).schema_id
    out["versions"] = client.get_versions("py-value")
    out["subjects"] = sorted(client.get_subjects())
    out["schema_2_fields"] = [f["name"] for f in json.loads(client.get_schema(out["id_v2"]).schema_str)["fields"]]
    out["compatible_v2"] = client.test_compatibility("py-value", v2)
    out["compatible_incompatible"] = client.test_compatibility("py-value", incompatible)
    out["register_incompatible_error"] = error_code(lambda: client.register_schema("py-value", incompatible))
    out["unknown_subject_error"] = error_code(lambda: client.get_latest_version("nope"))
    out["unknown_version_error"] = error_code(lambda: client.get_version("py-value", 9))
    out["unknown_id_error"] = error_code(lambda: SchemaRegistryClient({"url": url}).get_schema(999))
    out["set_global"] = client.set_compatibility(level="full")
    out["global"] = client.get_compatibility()
    out["set_subject"] = client.set_compatibility("py-value", "NONE")
    out["subject"] = client.get_compatibility("py-value")
    out["bad_level_error"] = error_code(lambda: client.set_compatibility(level="SIDEWAYS"))
    out["deleted"] = client.delete_subject("py-other-value")
    out["subjects_after_delete"] = sorted(client.get_subjects())
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
