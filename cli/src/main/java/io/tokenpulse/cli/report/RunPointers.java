package io.tokenpulse.cli.report;

/**
 * The lines that make a run reachable after it ends: its id before the load, and after the block
 * the {@code replay}, {@code chart} and {@code report} commands that take it, with the flags that
 * find the same Kafka cluster ({@code KafkaOptions.reachingFlags}).
 */
public final class RunPointers {

    private RunPointers() {}

    /** Printed before the load: the id every record of the run carries. */
    public static String before(String runId) {
        return "Run id: " + runId;
    }

    /**
     * Printed after the block: the commands that read this run back, one a line, pasteable.
     *
     * @param where the flags that reach the run's cluster, starting with a space (empty for the default)
     */
    public static String after(String runId, String where) {
        String flags = " --run-id " + runId + where;
        String nl = System.lineSeparator();
        return "Run id: " + runId + "; to look at this run again:" + nl
                + "  ./tokenpulse replay" + flags + nl
                + "  ./tokenpulse chart" + flags + " --output run.png" + nl
                + "  ./tokenpulse report" + flags + " --output run.html" + nl;
    }
}
