package io.tokenpulse.producer.sse;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Incremental, byte-level parser of one Server-Sent-Events response body
 * (<a href="https://html.spec.whatwg.org/multipage/server-sent-events.html">WHATWG event
 * stream</a>), fed the body's bytes as the network delivers them.
 *
 * <p>Emits one event per dispatched {@code data:} payload (several {@code data:} lines of one
 * event are joined with {@code \n}). Comments ({@code :} lines, used as pings), other fields
 * ({@code event:}, {@code id:}, {@code retry:}) and events without data are skipped. Lines may
 * end in CRLF, LF or CR, and any line, event or UTF-8 character may be split across reads: the
 * parser works on bytes and never decodes, so a payload reaches the listener only whole.
 * A payload of {@code [DONE]} is reported through {@link Listener#onDone} and is not an event.
 *
 * <p><b>Timestamps.</b> Each event carries the {@code arrivalNs} of the read that delivered the
 * end of its last {@code data:} line, i.e. when its payload was complete, even if the blank line
 * that dispatches it comes in a later read. Several events completed by one read all carry that
 * read's timestamp: the parser cannot know when, within a read, a byte arrived.
 *
 * <p><b>Memory.</b> No allocation per byte or per event on the hot path: a line that lies
 * within one read is parsed in place; payload bytes are copied once, in bulk, into a reused
 * buffer that grows as needed up to {@code maxEventBytes} (10 MiB by default), beyond which
 * {@link SseException} is thrown. The array handed to the listener is only valid during the
 * call. A direct buffer's bytes pass through one scratch array per thread, not per parser (a
 * parser lives for one response: 16 KiB each was most of the client's allocation per event).
 *
 * <p><b>End of stream.</b> {@link #finish()} dispatches an event the server left unterminated
 * (as vLLM's client accepts a last {@code data:} line without the blank line) and tells whether
 * {@code [DONE]} was seen.
 *
 * <p>Not thread-safe: one parser per response, driven by the connection's I/O thread.
 */
public final class SseParser {

    /**
     * Default limit on one line or one event's payload: 10 MiB, the size beyond which an event counts
     * as broken (a failed request, as the simulator's {@code oversized} fault expects). vLLM's client
     * fails far earlier, at aiohttp's 128 KiB line buffer ("Chunk too big"); real token events are a
     * few KiB even with logprobs, so both limits fail only broken streams.
     */
    public static final int DEFAULT_MAX_EVENT_BYTES = 10 * 1024 * 1024;

    private static final byte[] DATA = {'d', 'a', 't', 'a'};
    private static final byte[] DONE = {'[', 'D', 'O', 'N', 'E', ']'};
    private static final byte[] NEWLINE = {'\n'};
    /** First size of the line and payload buffers: a token event's payload fits; larger ones grow them (x2). */
    private static final int INITIAL_CAPACITY = 512;
    /** Direct buffers have no array: their bytes are copied through this, one per thread (the I/O threads). */
    private static final int SCRATCH_BYTES = 16 * 1024;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /** A thread's scratch array; busy while a feed uses it (a listener that feeds another parser gets its own). */
    private static final class Scratch {
        final byte[] bytes = new byte[SCRATCH_BYTES];
        boolean busy;
    }

    /** Receives the events of one stream. Called on the thread that calls {@code feed}. */
    public interface Listener {
        /**
         * One event's payload: {@code data[offset, offset + length)}, UTF-8, valid only during
         * the call.
         */
        void onData(byte[] data, int offset, int length, long arrivalNs);

        /** The {@code [DONE]} sentinel of OpenAI-style streams arrived. */
        default void onDone(long arrivalNs) {}
    }

    /**
     * How the stream ended.
     *
     * @param doneSeen whether a {@code [DONE]} payload arrived
     * @param events events delivered through {@link Listener#onData}
     * @param unterminatedEvent whether the body ended inside an event (no blank line after it)
     */
    public record StreamEnd(boolean doneSeen, long events, boolean unterminatedEvent) {}

    private final Listener listener;
    private final int maxEventBytes;

    /** The part of the current line that arrived in earlier reads. */
    private byte[] line = new byte[INITIAL_CAPACITY];

    private int lineLength;
    /** The previous read ended in CR: an LF that starts the next read belongs to it. */
    private boolean skipLeadingLf;
    /** The current event's payload so far. */
    private byte[] data = new byte[INITIAL_CAPACITY];

    private int dataLength;
    private boolean hasData;
    private long dataArrivalNs;

    private long lastReadNs;
    private long events;
    private boolean doneSeen;
    private boolean finished;

    /** A parser with the default payload limit. */
    public SseParser(Listener listener) {
        this(listener, DEFAULT_MAX_EVENT_BYTES);
    }

    /** A parser that rejects lines and payloads longer than {@code maxEventBytes}. */
    public SseParser(Listener listener, int maxEventBytes) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null");
        }
        if (maxEventBytes < 1) {
            throw new IllegalArgumentException("maxEventBytes must be >= 1, got " + maxEventBytes);
        }
        this.listener = listener;
        this.maxEventBytes = maxEventBytes;
    }

    /**
     * Parses the buffer's remaining bytes, which arrived at {@code arrivalNs}
     * ({@link System#nanoTime()}), and advances its position to its limit.
     *
     * @throws SseException when a line or payload exceeds the limit
     */
    public void feed(ByteBuffer bytes, long arrivalNs) {
        int length = bytes.remaining();
        if (bytes.hasArray()) {
            feed(bytes.array(), bytes.arrayOffset() + bytes.position(), length, arrivalNs);
            bytes.position(bytes.limit());
            return;
        }
        // Direct buffers have no array: copy in bulk through the thread's scratch array (feed keeps no
        // reference to it: a line cut by the read's end is copied to the parser's own buffer).
        Scratch shared = SCRATCH.get();
        boolean own = !shared.busy;
        byte[] scratch = own ? shared.bytes : new byte[Math.min(SCRATCH_BYTES, bytes.remaining())];
        shared.busy = true;
        try {
            while (bytes.hasRemaining()) {
                int n = Math.min(scratch.length, bytes.remaining());
                bytes.get(scratch, 0, n);
                feed(scratch, 0, n, arrivalNs);
            }
        } finally {
            if (own) {
                shared.busy = false;
            }
        }
    }

    /**
     * Parses {@code bytes[offset, offset + length)}, which arrived at {@code arrivalNs}
     * ({@link System#nanoTime()}). The array is not kept.
     *
     * @throws SseException when a line or payload exceeds the limit
     */
    public void feed(byte[] bytes, int offset, int length, long arrivalNs) {
        if (finished) {
            throw new IllegalStateException("feed after finish");
        }
        lastReadNs = arrivalNs;
        int i = offset;
        int end = offset + length;
        if (skipLeadingLf && i < end) {
            skipLeadingLf = false;
            if (bytes[i] == '\n') {
                i++;
            }
        }
        while (i < end) {
            int eol = indexOfLineEnd(bytes, i, end);
            if (eol < 0) {
                appendToLine(bytes, i, end - i);
                return;
            }
            if (lineLength == 0) {
                processLine(bytes, i, eol - i, arrivalNs);
            } else {
                appendToLine(bytes, i, eol - i);
                processLine(line, 0, lineLength, arrivalNs);
                lineLength = 0;
            }
            if (bytes[eol] == '\r') {
                if (eol + 1 == end) {
                    skipLeadingLf = true;
                } else if (bytes[eol + 1] == '\n') {
                    eol++;
                }
            }
            i = eol + 1;
        }
    }

    /**
     * Ends the stream: dispatches an unterminated last event, then says how the stream ended.
     * Call once, when the body is complete or the connection closed.
     */
    public StreamEnd finish() {
        if (finished) {
            throw new IllegalStateException("finish called twice");
        }
        finished = true;
        boolean unterminated = lineLength > 0 || hasData;
        if (lineLength > 0) {
            processLine(line, 0, lineLength, lastReadNs);
            lineLength = 0;
        }
        dispatch();
        return new StreamEnd(doneSeen, events, unterminated);
    }

    private static int indexOfLineEnd(byte[] bytes, int from, int end) {
        for (int i = from; i < end; i++) {
            byte b = bytes[i];
            if (b == '\n' || b == '\r') {
                return i;
            }
        }
        return -1;
    }

    private void processLine(byte[] bytes, int offset, int length, long arrivalNs) {
        if (length == 0) {
            dispatch();
            return;
        }
        if (bytes[offset] == ':') {
            return; // comment
        }
        int colon = -1;
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] == ':') {
                colon = i;
                break;
            }
        }
        int nameLength = (colon < 0 ? offset + length : colon) - offset;
        if (!Arrays.equals(bytes, offset, offset + nameLength, DATA, 0, DATA.length)) {
            return; // event, id, retry and unknown fields do not matter here
        }
        int valueStart = colon < 0 ? offset + length : colon + 1;
        if (valueStart < offset + length && bytes[valueStart] == ' ') {
            valueStart++;
        }
        if (hasData) {
            appendToData(NEWLINE, 0, 1);
        }
        appendToData(bytes, valueStart, offset + length - valueStart);
        hasData = true;
        dataArrivalNs = arrivalNs;
    }

    private void dispatch() {
        if (!hasData) {
            return;
        }
        hasData = false;
        int length = dataLength;
        dataLength = 0;
        int start = 0;
        int end = length;
        while (start < end && isBlank(data[start])) {
            start++;
        }
        while (end > start && isBlank(data[end - 1])) {
            end--;
        }
        if (start == end) {
            return; // an empty payload is a keep-alive, not an event
        }
        if (Arrays.equals(data, start, end, DONE, 0, DONE.length)) {
            doneSeen = true;
            listener.onDone(dataArrivalNs);
            return;
        }
        events++;
        listener.onData(data, 0, length, dataArrivalNs);
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    private void appendToLine(byte[] bytes, int offset, int length) {
        line = ensureCapacity(line, lineLength, length, "line");
        System.arraycopy(bytes, offset, line, lineLength, length);
        lineLength += length;
    }

    private void appendToData(byte[] bytes, int offset, int length) {
        data = ensureCapacity(data, dataLength, length, "event payload");
        System.arraycopy(bytes, offset, data, dataLength, length);
        dataLength += length;
    }

    private byte[] ensureCapacity(byte[] buffer, int used, int extra, String what) {
        long needed = (long) used + extra;
        if (needed > maxEventBytes) {
            throw new SseException("SSE " + what + " exceeds the client's limit of " + maxEventBytes + " bytes");
        }
        if (needed <= buffer.length) {
            return buffer;
        }
        long grown = Math.max(needed, 2L * buffer.length);
        return Arrays.copyOf(buffer, (int) Math.min(grown, maxEventBytes));
    }
}
