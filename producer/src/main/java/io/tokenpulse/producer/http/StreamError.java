package io.tokenpulse.producer.http;

import java.util.Objects;

/**
 * Why a request failed, as a value (never a thrown exception).
 *
 * @param kind          what went wrong
 * @param httpStatus    the response status when one arrived, else 0
 * @param message       one line for humans, e.g. "connection reset by peer after 512 body bytes"
 * @param body          the error response's body (truncated to the configured limit) for
 *                      {@link Kind#HTTP_STATUS}, else empty
 */
public record StreamError(Kind kind, int httpStatus, String message, String body) {

    /** The failure text of a request cancelled by the client's close (a stopped run's drain timeout). */
    public static final String CLOSED_IN_FLIGHT = "the HTTP client was closed while the request was in flight";

    public enum Kind {
        /** TCP connect failed or timed out: nothing was sent. */
        CONNECT_FAILED,
        /** The server answered with a status other than 200. */
        HTTP_STATUS,
        /** The connection was reset or closed before the response ended. */
        CONNECTION_CLOSED,
        /** The whole request took longer than the request timeout. */
        REQUEST_TIMEOUT,
        /** No bytes arrived for longer than the read-idle timeout. */
        READ_TIMEOUT,
        /** The response was not valid HTTP/1.1. */
        PROTOCOL,
        /** The {@link StreamListener} threw. */
        LISTENER_FAILED,
        /** The client was closed while the request was in flight. */
        CLIENT_CLOSED
    }

    public StreamError {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(body, "body");
    }

    static StreamError of(Kind kind, String message) {
        return new StreamError(kind, 0, message, "");
    }

    /** One line: "HTTP 500: {body}" for status errors, else the message. */
    public String reason() {
        return kind == Kind.HTTP_STATUS
                ? "HTTP " + httpStatus + ": " + body.replaceAll("\\s+", " ").strip()
                : message;
    }
}
