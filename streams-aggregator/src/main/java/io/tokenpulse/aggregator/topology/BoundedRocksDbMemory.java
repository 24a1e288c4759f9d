package io.tokenpulse.aggregator.topology;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * One memory budget for every RocksDB store of the process, as Kafka Streams' memory-management
 * guide recommends. By default each store instance (about ten stores times their partitions here)
 * gets its own 16 MB memtables, up to three of them, and its own block cache, so native memory grows
 * with the data written for tens of minutes before it levels off: a soak run's RSS kept climbing.
 * Here all stores share one LRU cache that also accounts for their memtables.
 *
 * <p>The cache and the write-buffer manager are shared by all stores of the JVM, hence static, and
 * are never closed by a store's {@link #close}.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

    /** Block cache and memtables of all stores together. */
    static final long TOTAL_BYTES = 64L * 1024 * 1024;
    /** The part of {@link #TOTAL_BYTES} memtables may take before RocksDB flushes them. */
    static final long MEMTABLE_BYTES = 32L * 1024 * 1024;
    /** The part of the cache kept for index and filter blocks, so that data blocks cannot evict them. */
    private static final double INDEX_AND_FILTER_RATIO = 0.1;

    /** Created on the first store's configuration, once RocksDB's native library is loaded (not when the class is named). */
    private static final class Shared {
        static {
            RocksDB.loadLibrary();
        }

        static final Cache CACHE = new LRUCache(TOTAL_BYTES, -1, false, INDEX_AND_FILTER_RATIO);
        static final WriteBufferManager WRITE_BUFFERS = new WriteBufferManager(MEMTABLE_BYTES, CACHE);
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(Shared.CACHE);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setTableFormatConfig(table);
        options.setWriteBufferManager(Shared.WRITE_BUFFERS);
        // Small memtables, flushed early: the stores hold short-lived per-request state.
        options.setWriteBufferSize(4L * 1024 * 1024);
        options.setMaxWriteBufferNumber(2);
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache and write-buffer manager are shared by every store: closing one store keeps them.
    }
}
