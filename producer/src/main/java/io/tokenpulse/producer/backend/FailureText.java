package io.tokenpulse.producer.backend;

/**
 * The one rule for a failure reason's text: failures are counted by their text (the block's
 * "Failures by reason" lines, the run's tally) and printed, so a reason is one line of at most
 * {@value #MAX_CHARS} characters, cut with {@code ...}. Pure; thread-safe.
 */
public final class FailureText {
    /** Longest reason kept, in characters (before the {@code ...} of a cut one). */
    public static final int MAX_CHARS = 300;

    private FailureText() {}

    /** {@code reason} with its runs of white space folded to one space, stripped, and cut to {@link #MAX_CHARS}. */
    public static String oneLine(String reason) {
        String oneLine = reason.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= MAX_CHARS ? oneLine : oneLine.substring(0, MAX_CHARS) + "...";
    }
}
