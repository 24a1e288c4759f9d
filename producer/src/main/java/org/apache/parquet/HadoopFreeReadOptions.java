package org.apache.parquet;

import java.util.Map;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;

/**
 * {@link ParquetReadOptions} that load no Hadoop class: parquet-java's builder always makes
 * Hadoop's codec factory and asks Hadoop's input format for a filter, and TokenPulse ships no
 * Hadoop. The constructor the builder ends in is package-private, hence this class in
 * parquet-java's package (the compiler checks it against each new parquet-java version).
 */
public final class HadoopFreeReadOptions {

    /** parquet-java's default largest buffer a read allocates. */
    private static final int MAX_ALLOCATION_BYTES = 8 * 1024 * 1024;

    private HadoopFreeReadOptions() {}

    /** Every row of every row group (no filter, no statistics, no checksums), pages decoded by {@code codecs}. */
    public static ParquetReadOptions of(CompressionCodecFactory codecs) {
        boolean no =
                false; // signed min/max, stats, dictionary, record, column index, checksum, bloom, off-heap, vectored
        return new ParquetReadOptions(
                no,
                no,
                no,
                no,
                no,
                no,
                no,
                no,
                no,
                FilterCompat.NOOP,
                ParquetMetadataConverter.NO_FILTER,
                codecs,
                new HeapByteBufferAllocator(),
                MAX_ALLOCATION_BYTES,
                Map.of(),
                null,
                null,
                new PlainParquetConfiguration());
    }
}
