package io.tokenpulse.producer.sse;

/** The response body is not an event stream this client can read (e.g. an oversized event). */
public final class SseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    SseException(String message) {
        super(message);
    }
}
