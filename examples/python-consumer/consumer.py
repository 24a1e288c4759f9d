#!/usr/bin/python3
"""TokenPulse example: a downstream analytics consumer written with clients nobody in TokenPulse wrote.

It reads TokenPulse topics with confluent_kafka's Consumer, decodes each value from the Confluent
wire format (magic byte 0, 4-byte big-endian schema id, Avro binary) by fetching the writer's
schema from the Schema Registry by id and decoding with the Apache Avro library, and prints one
JSON line per record on stdout:

    {"topic": ..., "partition": ..., "offset": ..., "key": ..., "schema_id": ..., "value": {...}}

A ChunkBatch record (tokenpulse.chunk-batches: several consecutive streamed events of one request)
prints as the Chunk records of tokenpulse.chunks it stands for, one line per event, each with the
batch's place and "event": its index in the batch, so both topics read as one chunk per event.

Optionally it first registers schemas of its own (--register-schema SUBJECT FILE), as an analytics
job would for the records it publishes. Log lines and unreadable records go to stderr.

Needs Debian's python3-confluent-kafka, python3-avro and python3-requests; run with /usr/bin/python3.
"""

import argparse
import io
import json
import math
import signal
import struct
import sys
import time

import avro.errors
import avro.io
import avro.schema
from confluent_kafka import Consumer, KafkaError
from confluent_kafka.schema_registry import Schema, SchemaRegistryClient, SchemaRegistryError

MAGIC_BYTE = 0
HEADER = struct.Struct(">bI")  # magic byte, schema id (big-endian)
CHUNK_BATCH = "io.tokenpulse.schemas.avro.ChunkBatch"


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bootstrap-servers", default="127.0.0.1:9092", help="Kafka bootstrap servers")
    parser.add_argument("--schema-registry-url", default="http://127.0.0.1:8081", help="Schema Registry base URL")
    parser.add_argument("--topic", action="append", required=True,
                        help="topic to read, e.g. tokenpulse.request-metrics (repeat for several)")
    parser.add_argument("--group-id", default="tokenpulse-analytics-example", help="consumer group")
    parser.add_argument("--offset-reset", choices=["earliest", "latest"], default="earliest",
                        help="where a new consumer group starts")
    parser.add_argument("--max-records", type=int, default=0, help="stop after this many records (0: no limit)")
    parser.add_argument("--idle-timeout", type=float, default=0,
                        help="stop after this many seconds without a record (0: run until Ctrl-C)")
    parser.add_argument("--register-schema", nargs=2, action="append", default=[], metavar=("SUBJECT", "FILE"),
                        help="register the Avro schema in FILE under SUBJECT before consuming (repeatable)")
    return parser.parse_args(argv)


class WireFormatDecoder:
    """Decodes Confluent wire-format Avro values; one parsed writer schema per id, fetched once."""

    def __init__(self, registry):
        self.registry = registry
        self.readers = {}

    def record_name(self, schema_id):
        """The full name of a schema decode() has read, e.g. io.tokenpulse.schemas.avro.Chunk."""
        return self.readers[schema_id].writers_schema.fullname

    def decode(self, value):
        if value is None:
            return None, None
        if len(value) < HEADER.size:
            raise ValueError("%d byte(s), fewer than the 5-byte wire-format header" % len(value))
        magic, schema_id = HEADER.unpack_from(value)
        if magic != MAGIC_BYTE:
            raise ValueError("magic byte %d, not 0: not Confluent wire format" % magic)
        reader = self.readers.get(schema_id)
        if reader is None:
            registered = self.registry.get_schema(schema_id)
            if registered.schema_type != "AVRO":
                raise ValueError("schema id %d is %s, not AVRO" % (schema_id, registered.schema_type))
            reader = avro.io.DatumReader(avro.schema.parse(registered.schema_str))
            self.readers[schema_id] = reader
        body = io.BytesIO(value[HEADER.size:])
        datum = reader.read(avro.io.BinaryDecoder(body))
        if body.tell() != len(value) - HEADER.size:
            raise ValueError("%d byte(s) left after the record" % (len(value) - HEADER.size - body.tell()))
        return schema_id, datum


def chunks_of(batch):
    """A ChunkBatch's events as the Chunk records they stand for (the rule in ChunkBatch.avsc's doc)."""
    offsets = batch["offsets_ns"]
    for i, offset in enumerate(offsets):
        yield {
            "run_id": batch["run_id"],
            "shard_index": batch["shard_index"],
            "request_index": batch["request_index"],
            "seq": batch["first_seq"] + i,
            "offset_ns": offset,
            "gap_ns": batch["first_gap_ns"] if i == 0 else offset - offsets[i - 1],
            "arrived_epoch_ns": batch["first_arrived_epoch_ns"] + offset - offsets[0],
            "tokens": batch["tokens"][i],
            "bytes": batch["bytes"][i],
        }


def jsonable(datum):
    """JSON has no Infinity or NaN (a run with --request-rate inf has one): print those as strings."""
    if isinstance(datum, float) and not math.isfinite(datum):
        return str(datum)
    if isinstance(datum, dict):
        return {key: jsonable(value) for key, value in datum.items()}
    if isinstance(datum, list):
        return [jsonable(value) for value in datum]
    if isinstance(datum, bytes):
        return datum.hex()
    return datum


def register_schemas(registry, subjects_and_files, log):
    for subject, path in subjects_and_files:
        with open(path, encoding="utf-8") as schema_file:
            schema_str = schema_file.read()
        avro.schema.parse(schema_str)  # fail here, with Avro's message, before the registry sees it
        schema_id = registry.register_schema(subject, Schema(schema_str, "AVRO"))
        log("registered %s from %s as schema id %d" % (subject, path, schema_id))


def consume(args, out, log):
    registry = SchemaRegistryClient({"url": args.schema_registry_url})
    register_schemas(registry, args.register_schema, log)
    decoder = WireFormatDecoder(registry)
    consumer = Consumer({
        "bootstrap.servers": args.bootstrap_servers,
        "group.id": args.group_id,
        "auto.offset.reset": args.offset_reset,
    })
    stopping = []
    signal.signal(signal.SIGINT, lambda *_: stopping.append(True))
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    records = unreadable = 0
    last_record = time.monotonic()
    try:
        consumer.subscribe(args.topic)
        while not stopping:
            if args.max_records and records + unreadable >= args.max_records:
                break
            if args.idle_timeout and time.monotonic() - last_record > args.idle_timeout:
                log("no record for %.0f s, stopping" % args.idle_timeout)
                break
            message = consumer.poll(0.5)
            if message is None:
                continue
            if message.error():
                if message.error().code() != KafkaError._PARTITION_EOF:
                    log("consumer error: %s" % message.error())
                continue
            last_record = time.monotonic()
            where = {"topic": message.topic(), "partition": message.partition(), "offset": message.offset()}
            try:
                schema_id, value = decoder.decode(message.value())
            except (ValueError, EOFError, SchemaRegistryError, avro.errors.AvroException) as error:
                # Counted and shown, never dropped silently: the record stays in Kafka for a re-read.
                unreadable += 1
                print(json.dumps(dict(where, error=str(error))), file=sys.stderr, flush=True)
                continue
            key = message.key().decode("utf-8", "replace") if message.key() is not None else None
            if value is not None and decoder.record_name(schema_id) == CHUNK_BATCH:
                lines = [dict(where, key=key, schema_id=schema_id, event=i, value=chunk)
                         for i, chunk in enumerate(chunks_of(value))]
            else:
                lines = [dict(where, key=key, schema_id=schema_id, value=jsonable(value))]
            out.write("".join(json.dumps(line) + "\n" for line in lines))
            out.flush()
            records += 1
    finally:
        consumer.close()
    log("consumed %d record(s), %d unreadable" % (records, unreadable))
    return 1 if unreadable else 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)

    def log(text):
        print("consumer.py: " + text, file=sys.stderr, flush=True)

    try:
        return consume(args, sys.stdout, log)
    except SchemaRegistryError as error:
        log("schema registry at %s refused: %s" % (args.schema_registry_url, error))
    except (OSError, avro.errors.AvroException) as error:
        log(str(error))
    return 2


if __name__ == "__main__":
    sys.exit(main())
