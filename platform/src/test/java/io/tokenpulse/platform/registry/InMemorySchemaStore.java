package io.tokenpulse.platform.registry;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** The registry's log in a list, for tests without a broker; can be told to fail writes. */
final class InMemorySchemaStore implements SchemaStore {
    private final List<StoreRecord> records = new ArrayList<>();
    private volatile boolean failWrites;

    void failWrites(boolean fail) {
        this.failWrites = fail;
    }

    @Override
    public synchronized List<StoreRecord> readAll() {
        return List.copyOf(records);
    }

    @Override
    public synchronized void append(StoreRecord record) throws IOException {
        if (failWrites) {
            throw new IOException("store is down (test)");
        }
        records.add(record);
    }

    @Override
    public void close() {
        // the records stay, so a second registry on the same store sees them: that is a restart
    }
}
