package io.tokenpulse.producer.backend;

/** Reads one data payload (or a whole non-streamed body) of a backend's wire format. Stateless and thread-safe. */
interface EventParser {

    /** {@code data[offset, offset + length)}, UTF-8; never throws for bad input, returns an error event instead. */
    StreamEvent read(byte[] data, int offset, int length);
}
