package io.tokenpulse.producer.http;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Receives one request's progress from {@link StreamingHttpClient#send}. Exactly one of
 * {@link #onComplete} and {@link #onError} ends every request.
 *
 * <p>Threading: every call comes from the connection's I/O thread, in order. Implementations must
 * never block (hand records to Kafka without waiting) and should return within microseconds: the
 * same thread timestamps the other streams of its connections. A listener that throws fails its
 * request with {@link StreamError.Kind#LISTENER_FAILED}.
 */
public interface StreamListener {

    /**
     * A connection was assigned to the request.
     *
     * @param connectNs time spent opening a new connection (TCP connect) in ns; 0 when an idle
     *                  pooled connection was reused. Reported apart from TTFT (docs/metrics.md, connect time).
     */
    default void onConnected(long connectNs) {}

    /** @param sentNs System.nanoTime() immediately before the request was written (docs/metrics.md, sent). */
    default void onRequestSent(long sentNs) {}

    /**
     * The status line and headers arrived. Names are lower case; repeated headers are joined with
     * ", ". For a status other than 200 no bytes follow: the body comes with {@link #onError}.
     */
    default void onResponseStart(int status, Map<String, String> headers) {}

    /**
     * Body bytes of a 200 response, as they came off the socket.
     *
     * @param bytes     valid only during the call: copy what must be kept
     * @param arrivalNs System.nanoTime() taken on the read path when the socket read that delivered
     *                  these bytes returned, before HTTP decoding
     */
    void onBytes(ByteBuffer bytes, long arrivalNs);

    /** The whole 200 response arrived; {@code completedNs} is the arrival time of its last bytes. */
    void onComplete(long completedNs);

    /** The request failed; see {@link StreamError#reason()}. */
    void onError(StreamError error);
}
