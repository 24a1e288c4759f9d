package io.tokenpulse.producer.session;

import java.util.Objects;

/**
 * How a multi-turn dataset's sessions are played.
 *
 * @param thinkTime {@code --think-time-ms}: the wait between an answer's end and the next turn's send
 * @param history {@code --multi-turn-history}: whose answers the next turns send back
 * @param headerName {@code --session-header}: the header that carries the session's id on every turn
 *     (AIPerf's {@link #AFFINITY_HEADER} when the flag is given without a name), or null to send none
 */
public record SessionOptions(ThinkTime thinkTime, HistorySource history, String headerName) {

    /** AIPerf's session-affinity header, which routers (llm-d, Dynamo) read to keep a session on one server. */
    public static final String AFFINITY_HEADER = "X-Session-Affinity";

    public static final SessionOptions DEFAULTS = new SessionOptions(ThinkTime.NONE, HistorySource.SERVER, null);

    public SessionOptions {
        Objects.requireNonNull(thinkTime, "thinkTime");
        Objects.requireNonNull(history, "history");
        if (headerName != null && !headerName.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
            throw new IllegalArgumentException("--session-header '" + headerName
                    + "' is not an HTTP header name; give letters, digits and '-' (e.g. " + AFFINITY_HEADER + ")");
        }
    }

    /** The session id of session {@code sessionIndex} of run {@code runId}: unique per run, readable in server logs. */
    public static String sessionId(String runId, int sessionIndex) {
        return runId + "-session-" + sessionIndex;
    }
}
