package io.tokenpulse.schemas;

import java.util.List;
import java.util.function.Function;

/**
 * What each part of the pipeline reads and writes, declared once: the secured platform grants its
 * ACLs from it, and every command checks before it starts that its credentials allow it.
 */
public enum PipelineRole {
    /**
     * {@code bench}: publishes a run (and, for --server-metrics, its scrapes), reads its summary, its
     * scrapes back for the server section (and, for --save-detailed, its request metrics).
     */
    BENCH(
            "bench",
            t -> List.of(t.runSummaries(), t.requestMetrics(), t.serverMetrics()),
            t -> List.of(t.runs(), t.requests(), t.chunks(), t.chunkBatches(), t.serverMetrics())),
    /** {@code aggregate}: the topology's sources and sinks (its internal topics are its own prefix). */
    AGGREGATE(
            "aggregate",
            t -> List.of(t.runs(), t.requests(), t.chunks(), t.chunkBatches(), t.serverMetrics()),
            t -> List.of(t.requestMetrics(), t.windowMetrics(), t.runSummaries(), t.deadLetter())),
    /** {@code replay} and {@code rescore}: a stored run's configuration, request metrics and server scrapes. */
    REPLAY("replay", t -> List.of(t.runs(), t.requestMetrics(), t.serverMetrics()), t -> List.of()),
    /** {@code chart}: a stored run's windows and summary. */
    CHART("chart", t -> List.of(t.runs(), t.windowMetrics(), t.runSummaries()), t -> List.of()),
    /** {@code compare --run-id}: stored runs, scored as {@code replay} scores them. */
    COMPARE("compare", t -> List.of(t.runs(), t.requestMetrics(), t.serverMetrics()), t -> List.of()),
    /** {@code export}: a stored run as {@code replay} reads it, with its chunk events and windows. */
    EXPORT(
            "export",
            t -> List.of(
                    t.runs(), t.requestMetrics(), t.serverMetrics(), t.chunks(), t.chunkBatches(), t.windowMetrics()),
            t -> List.of()),
    /** {@code report --run-id}: a stored run, scored, with its windows. */
    REPORT(
            "report",
            t -> List.of(t.runs(), t.requestMetrics(), t.serverMetrics(), t.windowMetrics(), t.runSummaries()),
            t -> List.of());

    private final String command;
    private final Function<Topics, List<TopicSpec<?>>> reads;
    private final Function<Topics, List<TopicSpec<?>>> writes;

    PipelineRole(
            String command, Function<Topics, List<TopicSpec<?>>> reads, Function<Topics, List<TopicSpec<?>>> writes) {
        this.command = command;
        this.reads = reads;
        this.writes = writes;
    }

    /** The {@code tokenpulse} command that plays this role. */
    public String command() {
        return command;
    }

    public List<TopicSpec<?>> reads(Topics topics) {
        return reads.apply(topics);
    }

    public List<TopicSpec<?>> writes(Topics topics) {
        return writes.apply(topics);
    }
}
