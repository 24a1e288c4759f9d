package io.tokenpulse.cli.options;

import io.tokenpulse.producer.session.HistorySource;
import io.tokenpulse.producer.session.SessionOptions;
import io.tokenpulse.producer.session.ThinkTime;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** How multi-turn sessions are played: think time, history and the session header. */
public final class SessionFlags {

    @Option(
            names = "--think-time-ms",
            description =
                    "Wait between a session's answer and its next turn, in ms: a fixed number (500), an exponential mean (exp:500) or uniform bounds (uniform:200-800); default 0.")
    String thinkTimeMs;

    @Option(
            names = "--multi-turn-history",
            description =
                    "Answers a session's later turns send back: server (as they came back, the default) or dataset (the recorded ones, the same prompts on every server).")
    String history;

    @Option(
            names = "--session-header",
            arity = "0..1",
            fallbackValue = SessionOptions.AFFINITY_HEADER,
            description = "Send each session's id in this header on every turn; without a NAME, AIPerf's "
                    + SessionOptions.AFFINITY_HEADER + ". Default: no header.")
    String sessionHeader;

    /**
     * The session options; flags that only sessions use are refused for other datasets.
     *
     * @param sessions whether the dataset plays sessions
     * @throws IllegalArgumentException with one line naming the flag to change
     */
    public SessionOptions options(boolean sessions) {
        if (!sessions) {
            List<String> given = new ArrayList<>();
            if (thinkTimeMs != null) {
                given.add("--think-time-ms");
            }
            if (history != null) {
                given.add("--multi-turn-history");
            }
            if (sessionHeader != null) {
                given.add("--session-header");
            }
            if (!given.isEmpty()) {
                throw new IllegalArgumentException(String.join(", ", given)
                        + (given.size() == 1 ? " only applies" : " only apply") + " to multi-turn sessions;"
                        + " use --dataset-name multi-turn or sharegpt --multi-turn, or remove them");
            }
            return SessionOptions.DEFAULTS;
        }
        return new SessionOptions(
                thinkTimeMs == null ? ThinkTime.NONE : ThinkTime.parse(thinkTimeMs),
                history == null ? HistorySource.SERVER : HistorySource.parse(history),
                sessionHeader);
    }
}
