package io.tokenpulse.producer.parquet;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4Factory;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Parquet's page codecs without Hadoop: parquet-java's own factory goes through Hadoop's codec
 * classes (tens of MB of jars), these call snappy-java, zstd-jni and lz4-java (which Kafka's
 * clients ship anyway) and the JDK's gzip directly. Uncompressed, Snappy, ZSTD, GZIP and LZ4_RAW:
 * what the Hugging Face hub's files use (Snappy, ZSTD) and every other codec of the format but the
 * deprecated LZ4 framing, LZO and Brotli, which are refused by name.
 */
public final class ParquetCodecs implements CompressionCodecFactory {

    /** Stateless: one for every reader and writer. */
    public static final ParquetCodecs INSTANCE = new ParquetCodecs();

    private static final int ZSTD_LEVEL = 3; // zstd's and parquet-java's default

    private ParquetCodecs() {}

    /** One codec as two functions over whole pages. */
    private interface Codec {
        byte[] compress(byte[] page) throws IOException;

        byte[] decompress(byte[] page, int size) throws IOException;
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName name) {
        Codec codec = codec(name);
        return new BytesInputCompressor() {
            @Override
            public BytesInput compress(BytesInput bytes) throws IOException {
                return BytesInput.from(codec.compress(bytes.toByteArray()));
            }

            @Override
            public CompressionCodecName getCodecName() {
                return name;
            }

            @Override
            public void release() {}
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName name) {
        Codec codec = codec(name);
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput bytes, int size) throws IOException {
                return BytesInput.from(codec.decompress(bytes.toByteArray(), size));
            }

            @Override
            public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int size)
                    throws IOException {
                byte[] page = new byte[compressedSize];
                input.get(page);
                output.put(codec.decompress(page, size));
            }

            @Override
            public void release() {}
        };
    }

    @Override
    public void release() {}

    private static Codec codec(CompressionCodecName name) {
        return switch (name) {
            case UNCOMPRESSED ->
                new Codec() {
                    @Override
                    public byte[] compress(byte[] page) {
                        return page;
                    }

                    @Override
                    public byte[] decompress(byte[] page, int size) {
                        return page;
                    }
                };
            case SNAPPY ->
                new Codec() {
                    @Override
                    public byte[] compress(byte[] page) throws IOException {
                        return Snappy.compress(page);
                    }

                    @Override
                    public byte[] decompress(byte[] page, int size) throws IOException {
                        return Snappy.uncompress(page);
                    }
                };
            case ZSTD ->
                new Codec() {
                    @Override
                    public byte[] compress(byte[] page) {
                        return Zstd.compress(page, ZSTD_LEVEL);
                    }

                    @Override
                    public byte[] decompress(byte[] page, int size) {
                        return Zstd.decompress(page, size);
                    }
                };
            case GZIP ->
                new Codec() {
                    @Override
                    public byte[] compress(byte[] page) throws IOException {
                        ByteArrayOutputStream out = new ByteArrayOutputStream(page.length / 2 + 64);
                        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
                            gzip.write(page);
                        }
                        return out.toByteArray();
                    }

                    @Override
                    public byte[] decompress(byte[] page, int size) throws IOException {
                        try (GZIPInputStream gzip = new GZIPInputStream(new ByteArrayInputStream(page))) {
                            return gzip.readNBytes(size);
                        }
                    }
                };
            case LZ4_RAW ->
                new Codec() {
                    @Override
                    public byte[] compress(byte[] page) {
                        return LZ4Factory.fastestInstance().fastCompressor().compress(page);
                    }

                    @Override
                    public byte[] decompress(byte[] page, int size) {
                        return LZ4Factory.fastestInstance().safeDecompressor().decompress(page, size);
                    }
                };
            default ->
                throw new UnsupportedOperationException(
                        "Parquet compression " + name
                                + " is not supported (only uncompressed, SNAPPY, ZSTD, GZIP and LZ4_RAW); rewrite the file with"
                                + " one of those, e.g. in DuckDB: COPY (FROM 'in.parquet') TO 'out.parquet' (COMPRESSION zstd)");
        };
    }
}
