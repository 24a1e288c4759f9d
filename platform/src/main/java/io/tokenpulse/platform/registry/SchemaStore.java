package io.tokenpulse.platform.registry;

import java.io.IOException;
import java.util.List;

/**
 * Where the registry's log lives: a compacted Kafka topic in production, a list in unit tests.
 * Implementations need not be thread-safe: the registry calls them under its own lock.
 */
interface SchemaStore extends AutoCloseable {

    /** Every entry written so far, oldest first. Called once, at start. */
    List<StoreRecord> readAll() throws IOException;

    /** Writes one entry; returns only once it is durable. */
    void append(StoreRecord record) throws IOException;

    @Override
    void close();
}
