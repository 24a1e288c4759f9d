package io.tokenpulse.producer.publish;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.stream.Stream;

/**
 * A bounded first-in first-out queue of serialized records in files: where {@link EventPublisher}
 * keeps what Kafka cannot take while it is away, in the order it came, until Kafka is back.
 *
 * <p>Written by hand: the file queues on Maven Central either sync every record to disk (Square's
 * Tape, whose last release is a 2017 beta) or need a dozen {@code --add-opens} on Java 17 and several
 * megabytes of jars (Chronicle Queue). This one appends length-prefixed records to segment files of
 * {@link #SEGMENT_BYTES} and deletes a segment once read; one thread (the publisher's sender) owns
 * it. Nothing is synced: the spool outlives a Kafka outage, not the crash of its own process (whose
 * run is lost anyway).
 *
 * <p>Nothing touches the disk until the first {@link #append}; {@link #close} deletes the folder.
 */
final class Spool implements AutoCloseable {

    static final long SEGMENT_BYTES = 64L * 1024 * 1024;
    private static final int IO_BUFFER_BYTES = 1 << 16;
    /** target byte, key length, value length */
    private static final int HEADER_BYTES = 1 + 4 + 4;

    private final Path dir;
    private final long maxBytes;
    private final long segmentBytes;
    private final Deque<Segment> segments = new ArrayDeque<>();
    private DataOutputStream writer;
    private DataInputStream reader;
    private Record head;
    private long nextSegment;
    private long appended;
    private long removed;
    private long bytesAppended;
    private long bytesRemoved;

    /** A spool in {@code dir} (created on first use) holding at most {@code maxBytes} of records. */
    Spool(Path dir, long maxBytes) {
        this(dir, maxBytes, SEGMENT_BYTES);
    }

    Spool(Path dir, long maxBytes, long segmentBytes) {
        if (maxBytes < 0 || segmentBytes <= 0) {
            throw new IllegalArgumentException("spool sizes must be positive");
        }
        this.dir = dir;
        this.maxBytes = maxBytes;
        this.segmentBytes = segmentBytes;
    }

    /** One spooled record: which topic ({@code target}, the publisher's index), its key and value bytes. */
    record Record(int target, byte[] key, byte[] value) {
        long size() {
            return HEADER_BYTES + key.length + value.length;
        }
    }

    /**
     * Appends a record; returns false, writing nothing, when it would take the spool past its bound.
     *
     * @throws UncheckedIOException when the disk refuses the write (full, not writable)
     */
    boolean append(Record record) {
        long size = record.size();
        if (bytesAppended - bytesRemoved + size > maxBytes) {
            return false;
        }
        try {
            Segment tail = segments.peekLast();
            if (tail == null || tail.bytes >= segmentBytes) {
                tail = newSegment();
            }
            writer.writeByte(record.target);
            writer.writeInt(record.key.length);
            writer.writeInt(record.value.length);
            writer.write(record.key);
            writer.write(record.value);
            tail.records++;
            tail.bytes += size;
            appended++;
            bytesAppended += size;
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the publish spool in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The oldest record, still in the spool; null when empty. */
    Record peek() {
        if (head != null || isEmpty()) {
            return head;
        }
        try {
            if (segments.size() == 1) {
                writer.flush(); // reading the segment being written: it sees only what left the writer's buffer
            }
            if (reader == null) {
                reader = new DataInputStream(
                        new BufferedInputStream(Files.newInputStream(segments.getFirst().path), IO_BUFFER_BYTES));
            }
            int target = reader.readUnsignedByte();
            byte[] key = new byte[reader.readInt()];
            byte[] value = new byte[reader.readInt()];
            reader.readFully(key);
            reader.readFully(value);
            head = new Record(target, key, value);
            return head;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the publish spool in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Takes the record {@link #peek} returned out of the spool; deletes a segment read to its end. */
    void remove() {
        if (head == null) {
            throw new IllegalStateException("remove() without a peek()");
        }
        bytesRemoved += head.size();
        removed++;
        head = null;
        Segment first = segments.getFirst();
        first.read++;
        if (first.read == first.records) {
            try {
                reader.close();
                reader = null;
                if (segments.size() == 1) { // the writer's segment: start over in a new one
                    writer.close();
                    writer = null;
                }
                segments.removeFirst();
                Files.delete(first.path);
            } catch (IOException e) {
                throw new UncheckedIOException("could not delete " + first.path + ": " + e.getMessage(), e);
            }
        }
    }

    Path dir() {
        return dir;
    }

    boolean isEmpty() {
        return appended == removed;
    }

    /** Records in the spool now. */
    long records() {
        return appended - removed;
    }

    /** Bytes of records in the spool now. */
    long bytes() {
        return bytesAppended - bytesRemoved;
    }

    /** The file {@link #keep} writes: what {@link #readKept} needs to read the records left in the folder. */
    static final String KEPT_FILE = "kept.properties";

    /**
     * Closes the spool but leaves the records still in it on disk, with a {@link #KEPT_FILE} naming
     * each target's topic, so that {@link #readKept} can hand them to Kafka later.
     *
     * @param topics topic name by the records' {@code target}
     */
    void keep(java.util.List<String> topics) {
        java.util.Properties kept = new java.util.Properties();
        kept.setProperty("records", String.valueOf(records()));
        // the first segment's records already sent (one is peeked, not removed: it is still unsent)
        kept.setProperty("skip", String.valueOf(segments.isEmpty() ? 0 : segments.getFirst().read));
        for (int i = 0; i < topics.size(); i++) {
            kept.setProperty("topic." + i, topics.get(i));
        }
        try {
            if (reader != null) {
                reader.close();
            }
            if (writer != null) {
                writer.close();
            }
            try (var out = Files.newBufferedWriter(dir.resolve(KEPT_FILE))) {
                kept.store(
                        out,
                        "records TokenPulse could not hand to Kafka; publish with: ./tokenpulse publish-spool " + dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not keep the publish spool " + dir + ": " + e.getMessage(), e);
        } finally {
            reader = null;
            writer = null;
            segments.clear();
        }
    }

    /** A record read back from a kept spool, with its topic name. */
    record Kept(String topic, byte[] key, byte[] value) {}

    /**
     * Reads a folder {@link #keep} left, oldest record first.
     *
     * @throws IllegalArgumentException with one line when {@code dir} is not a kept spool
     */
    static void readKept(Path dir, java.util.function.Consumer<Kept> consumer) {
        Path keptFile = dir.resolve(KEPT_FILE);
        if (!Files.isRegularFile(keptFile)) {
            throw new IllegalArgumentException(dir + " is not a kept TokenPulse spool (it has no " + KEPT_FILE
                    + "): pass the folder that bench printed");
        }
        java.util.Properties kept = new java.util.Properties();
        try (var in = Files.newBufferedReader(keptFile)) {
            kept.load(in);
            long skip = Long.parseLong(kept.getProperty("skip", "0"));
            java.util.List<Path> files;
            try (Stream<Path> list = Files.list(dir)) {
                files = list.filter(f -> f.getFileName().toString().endsWith(".spool"))
                        .sorted()
                        .toList();
            }
            for (Path file : files) {
                try (DataInputStream in2 =
                        new DataInputStream(new BufferedInputStream(Files.newInputStream(file), IO_BUFFER_BYTES))) {
                    while (true) {
                        int target;
                        try {
                            target = in2.readUnsignedByte();
                        } catch (java.io.EOFException end) {
                            break;
                        }
                        byte[] key = new byte[in2.readInt()];
                        byte[] value = new byte[in2.readInt()];
                        in2.readFully(key);
                        in2.readFully(value);
                        if (skip > 0) {
                            skip--;
                            continue;
                        }
                        String topic = kept.getProperty("topic." + target);
                        if (topic == null) {
                            throw new IllegalArgumentException(keptFile + " names no topic for target " + target);
                        }
                        consumer.accept(new Kept(topic, key, value));
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new IllegalArgumentException("cannot read the kept spool " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Deletes the spool's files and folder, records still in it included. */
    @Override
    public void close() {
        try {
            if (reader != null) {
                reader.close();
            }
            if (writer != null) {
                writer.close();
            }
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.walk(dir)) {
                    for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(file);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete the publish spool " + dir + ": " + e.getMessage(), e);
        } finally {
            reader = null;
            writer = null;
            segments.clear();
        }
    }

    private Segment newSegment() throws IOException {
        if (writer != null) {
            writer.close();
        }
        Files.createDirectories(dir);
        Segment segment = new Segment(dir.resolve(String.format("%020d.spool", nextSegment++)));
        writer = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(segment.path), IO_BUFFER_BYTES));
        segments.addLast(segment);
        return segment;
    }

    /** A file of records: how many were written to it and how many read back. */
    private static final class Segment {
        final Path path;
        long records;
        long bytes;
        long read;

        Segment(Path path) {
            this.path = path;
        }
    }
}
