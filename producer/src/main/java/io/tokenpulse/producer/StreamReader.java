package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.FailureText;
import io.tokenpulse.producer.backend.RequestOutcome;
import io.tokenpulse.producer.backend.ResponseTracker;
import io.tokenpulse.producer.http.StreamError;
import io.tokenpulse.producer.http.StreamListener;
import io.tokenpulse.producer.sse.SseException;
import io.tokenpulse.producer.sse.SseParser;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Reads one streamed response: bytes into the SSE parser, events into the backend's tracker, and
 * the end (complete or failed) into one {@link RequestOutcome}. A backend that does not stream
 * (DeepSpeed-MII) gets its whole body as one event, stamped when the body was complete.
 * Subclasses decide what a chunk and the end mean (publish records, or complete the initial test
 * run).
 *
 * <p>Threading: every call comes from the connection's I/O thread, in order (see
 * {@link StreamListener}); nothing here blocks.
 */
abstract class StreamReader implements StreamListener, SseParser.Listener {

    private final ResponseTracker tracker;
    private final SseParser parser = new SseParser(this);
    /** The body so far when the backend answers with one JSON document instead of SSE; else null. */
    private final ByteArrayOutputStream wholeBody;

    private long connectNs;
    private long sentNs = -1;
    private String parseError;
    private boolean ended;

    StreamReader(ResponseTracker tracker) {
        this.tracker = tracker;
        this.wholeBody = tracker.streamed() ? null : new ByteArrayOutputStream();
    }

    /** The response's status line arrived. */
    abstract void responseStarted();

    /** A data event that is a timing event ({@code first} or {@code event_i}). */
    abstract void chunk(ResponseTracker.Step step, long arrivalNs, int bytes);

    /** The request ended, once, at {@code endNs}. */
    abstract void ended(RequestOutcome outcome, long endNs);

    /** Connect time of this request, 0 when a pooled connection was reused. */
    final long connectNs() {
        return connectNs;
    }

    /** {@link System#nanoTime()} just before the request was written, or -1 when it never was. */
    final long sentNs() {
        return sentNs;
    }

    @Override
    public final void onConnected(long connectNs) {
        this.connectNs = connectNs;
    }

    @Override
    public final void onRequestSent(long sentNs) {
        this.sentNs = sentNs;
    }

    @Override
    public final void onResponseStart(int status, Map<String, String> headers) {
        responseStarted();
    }

    @Override
    public final void onBytes(ByteBuffer bytes, long arrivalNs) {
        if (wholeBody != null) {
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(copy);
            wholeBody.writeBytes(copy);
            return;
        }
        try {
            parser.feed(bytes, arrivalNs);
        } catch (SseException e) {
            // Throwing fails the request and closes the connection, which then reports this reason.
            parseError = e.getMessage();
            throw e;
        }
    }

    @Override
    public final void onData(byte[] data, int offset, int length, long arrivalNs) {
        ResponseTracker.Step step = tracker.onEvent(data, offset, length, arrivalNs);
        if (step.isChunk()) {
            chunk(step, arrivalNs, length);
        }
    }

    @Override
    public final void onComplete(long completedNs) {
        if (ended) {
            return;
        }
        if (wholeBody != null) {
            byte[] body = wholeBody.toByteArray();
            onData(body, 0, body.length, completedNs);
            end(tracker.finish(200, false), completedNs);
            return;
        }
        SseParser.StreamEnd end = parser.finish(); // may deliver a last event left unterminated
        end(tracker.finish(200, end.doneSeen()), completedNs);
    }

    @Override
    public final void onError(StreamError error) {
        if (ended) {
            return;
        }
        String reason =
                error.kind() == StreamError.Kind.LISTENER_FAILED && parseError != null ? parseError : error.reason();
        if (reason.isBlank()) {
            reason = "request failed: " + error.kind();
        }
        end(tracker.fail(error.httpStatus(), FailureText.oneLine(reason)), System.nanoTime());
    }

    /**
     * The request was never handed to the client (the plan decided not to send it): it ends now, failed
     * with {@code reason} and no HTTP status. Call on a request nothing else reports to.
     */
    final void notSent(String reason, long atNs) {
        end(tracker.fail(0, reason), atNs);
    }

    private void end(RequestOutcome outcome, long endNs) {
        ended = true;
        ended(outcome, endNs);
    }
}
