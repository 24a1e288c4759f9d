package io.tokenpulse.simulator;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The send time of every streamed event, as CSV
 * ({@code request_id,event,due_ns,sent_ns,sent_unix_ns,received_unix_ns}): ground truth to compare
 * a client's arrival times with, joined on {@code x-request-id}. {@code sent_unix_ns} is
 * {@code sent_ns} moved onto the wall clock by one offset taken at open, so gaps within the file are
 * exact; {@code received_unix_ns}, when the server had read the request, is moved by the same offset
 * (the time a client's send is compared with, e.g. a trace replay's).
 *
 * <p>Threading: {@link #onSent} runs on the event loops and only appends to a lock-free queue; a
 * daemon thread of its own writes the file. When the writer falls {@value #MAX_QUEUED} records
 * behind, records are dropped and counted ({@link #dropped}), never waited for.
 */
public final class SendLogFile implements SendListener, AutoCloseable {

    public static final int MAX_QUEUED = 1_000_000;
    static final String HEADER = "request_id,event,due_ns,sent_ns,sent_unix_ns,received_unix_ns";

    private record Sent(String requestId, int seq, long receivedNs, long dueNs, long sentNs) {}

    private final Path path;
    private final BufferedWriter out;
    private final long unixMinusNanoNs;
    private final ConcurrentLinkedQueue<Sent> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final LongAdder dropped = new LongAdder();
    private final Thread writer;
    private volatile boolean closing;
    private volatile IOException failure;

    private SendLogFile(Path path, BufferedWriter out) {
        this.path = path;
        this.out = out;
        // Instant.now() has µs precision where currentTimeMillis() has ms: clients' arrival times are
        // compared with sent_unix_ns across processes, so the offset must be as fine as the gaps.
        long beforeNs = System.nanoTime();
        Instant wall = Instant.now();
        long afterNs = System.nanoTime();
        this.unixMinusNanoNs =
                wall.getEpochSecond() * 1_000_000_000L + wall.getNano() - (beforeNs + (afterNs - beforeNs) / 2);
        this.writer = new Thread(this::drainUntilClosed, "tp-sim-send-log");
        writer.setDaemon(true);
    }

    /** Creates (or truncates) {@code path}, writes the header and starts the writer thread. */
    public static SendLogFile open(Path path) throws IOException {
        BufferedWriter out = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
        out.write(HEADER);
        out.newLine();
        SendLogFile log = new SendLogFile(path, out);
        log.writer.start();
        return log;
    }

    @Override
    public void onSent(String requestId, int seq, long receivedNs, long dueNs, long sentNs) {
        if (queued.incrementAndGet() > MAX_QUEUED || failure != null) {
            queued.decrementAndGet();
            dropped.increment();
            return;
        }
        queue.offer(new Sent(requestId, seq, receivedNs, dueNs, sentNs));
    }

    /** Records not written because the writer was too far behind or the file failed. */
    public long dropped() {
        return dropped.sum();
    }

    public Path path() {
        return path;
    }

    private void drainUntilClosed() {
        try {
            while (!closing) {
                if (!drain()) {
                    TimeUnit.MILLISECONDS.sleep(5);
                }
            }
            drain();
            out.flush();
        } catch (IOException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes what is queued; false when there was nothing. */
    private boolean drain() throws IOException {
        Sent sent = queue.poll();
        if (sent == null) {
            return false;
        }
        StringBuilder line = new StringBuilder(96);
        do {
            queued.decrementAndGet();
            line.setLength(0);
            line.append(csvField(sent.requestId()))
                    .append(',')
                    .append(sent.seq())
                    .append(',')
                    .append(sent.dueNs())
                    .append(',')
                    .append(sent.sentNs())
                    .append(',')
                    .append(sent.sentNs() + unixMinusNanoNs)
                    .append(',')
                    .append(sent.receivedNs() + unixMinusNanoNs);
            out.write(line.toString());
            out.newLine();
            sent = queue.poll();
        } while (sent != null);
        return true;
    }

    /** RFC 4180 quoting for the one free-text column (a client's x-request-id); too small for a CSV library. */
    static String csvField(String value) {
        if (value.indexOf(',') < 0 && value.indexOf('"') < 0 && value.indexOf('\n') < 0 && value.indexOf('\r') < 0) {
            return value;
        }
        return '"' + value.replace("\"", "\"\"") + '"';
    }

    /** Writes what is queued, closes the file; throws what writing it failed with. */
    @Override
    public void close() {
        closing = true;
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            out.close();
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        if (failure != null) {
            throw new UncheckedIOException("cannot write the send log " + path + ": " + failure.getMessage(), failure);
        }
    }
}
