package io.tokenpulse.aggregator.scoring;

import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one place that decides how failed requests are grouped: the bounded class that tags
 * {@code tokenpulse_requests_total{reason}}, and the text under which the run summary's
 * {@code errors} (the block's "Failures by reason" lines) counts them.
 *
 * <p>A request's own error text keeps its details (byte counts, ports, server-sent numbers) for
 * the result file's per-request {@code errors}; the grouped text masks them, so that one cause is
 * one line however many bytes each reset request had read ("connection to HOST:PORT failed after N
 * body bytes: ..."). Pure; thread-safe.
 */
public final class FailureReasons {
    /** A request error's {@code "HTTP 503"} prefix: the status stays in the grouped text. */
    private static final Pattern HTTP_PREFIX = Pattern.compile("^HTTP \\d{3}\\b");
    /** host:port, with an IPv4 address, a bracketed IPv6 address or a host name. */
    private static final Pattern HOST_PORT =
            Pattern.compile("(?:\\b(?:\\d{1,3}\\.){3}\\d{1,3}|\\[[0-9a-fA-F:.]+]|\\b[A-Za-z][\\w.-]*):\\d{1,5}\\b");
    /** Request ids: UUIDs and long hex runs (vLLM's {@code cmpl-<32 hex>}) that contain a digit. */
    private static final Pattern ID = Pattern.compile("\\b(?=[0-9a-fA-F-]*\\d)[0-9a-fA-F]{8}(?:-?[0-9a-fA-F]{4,})+\\b"
            + "|\\b(?=[0-9a-fA-F]*\\d)[0-9a-fA-F]{16,}\\b");
    /** A standalone number (not part of a word such as PT10M or utf-8's 8 in "utf8"). */
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])\\d+(?:\\.\\d+)?(?![\\w])");

    /** The class of a success. */
    public static final String NONE = "none";
    /** The failure classes that need no HTTP status: every run can have them, so meters start them at 0. */
    public static final List<String> STATUS_FREE = List.of("stream", "no_response");
    /**
     * The class, and the error's first word, of an agent trace's request that was not sent because a request it
     * waits for failed (the producer's {@code AgentRequestPlan.PARENT_FAILED}).
     */
    public static final String PARENT_FAILED = "parent_failed";

    private FailureReasons() {}

    /**
     * The bounded failure class: {@code none} for a success, {@code http_<status>} when the server
     * answered with another status than 200, {@code stream} when it answered 200 and the stream
     * failed, {@code no_response} when no status arrived (connect failure, timeout, reset before
     * the headers), {@code parent_failed} when it was never sent because its parent failed.
     */
    public static String classOf(RequestMetrics m) {
        if (m.getSuccess()) {
            return NONE;
        }
        if (m.getError().startsWith(PARENT_FAILED + ":")) {
            return PARENT_FAILED;
        }
        int status = m.getHttpStatus();
        if (status == 200) {
            return STATUS_FREE.get(0);
        }
        return status >= 100 && status <= 599 ? "http_" + status : STATUS_FREE.get(1);
    }

    /**
     * The text a failure is counted under: {@code error} with host:port, request ids and numbers
     * masked as {@code HOST:PORT}, {@code ID} and {@code N}, except a leading {@code HTTP <status>}.
     * A blank error groups as {@code (no reason given)}.
     */
    public static String groupOf(String error) {
        String text = error.strip();
        if (text.isEmpty()) {
            return "(no reason given)";
        }
        var prefix = HTTP_PREFIX.matcher(text);
        String head = prefix.lookingAt() ? prefix.group() : "";
        String rest = text.substring(head.length());
        rest = HOST_PORT.matcher(rest).replaceAll("HOST:PORT");
        rest = ID.matcher(rest).replaceAll("ID");
        rest = NUMBER.matcher(rest).replaceAll("N");
        return head + rest;
    }
}
