package io.tokenpulse.producer.session;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which answers a session's later turns send back as the conversation so far
 * ({@code --multi-turn-history}).
 */
public enum HistorySource {
    /** The server's answers as they came back: what a real chat client does (the default). */
    SERVER,
    /**
     * The dataset's recorded answers: every run sends the same prompts whatever the server answered,
     * so that runs against different servers compare like for like.
     */
    DATASET;

    /** The flag's value for this source. */
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static HistorySource parse(String value) {
        for (HistorySource source : values()) {
            if (source.flagValue().equals(value)) {
                return source;
            }
        }
        throw new IllegalArgumentException("--multi-turn-history '" + value + "' is not known; choose one of: "
                + Arrays.stream(values()).map(HistorySource::flagValue).collect(Collectors.joining(", ")));
    }
}
