package io.tokenpulse.aggregator.records;

import io.tokenpulse.aggregator.metrics.RequestReasoning;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The one mapping between a {@link RequestMetrics} record (topic {@code request-metrics}) and the
 * metric package's {@link RequestValues}, both ways, field by field: the values are derived once,
 * where the request's chunks and finish are joined ({@link RequestValues#of}), and every later reader
 * (run scoring, the live windows, the meters, the detailed result lists) takes them from the record
 * through {@link #values} instead of computing them again.
 *
 * <p>A record leaves {@code ttft_ns} out when no event arrived, and {@code e2el_ns} too unless the
 * request still has an E2EL (a pooling answer: one body, no streamed event); its
 * {@code sent_epoch_ns} and {@code finished_epoch_ns} are on the clock the values were computed on
 * (shard offsets out of the join, epoch time once re-anchored). Pure; thread-safe.
 */
public final class RequestMetricsMapper {

    private RequestMetricsMapper() {}

    /**
     * The record's values. A record's finish is never taken as earlier than its last event, so a
     * record from an older writer that stored it so still reads.
     */
    public static RequestValues values(RequestMetrics m) {
        boolean firstArrived = m.getTtftNs() != null;
        long sentNs = m.getSentEpochNs();
        long e2elNs = m.getE2elNs() == null ? 0 : m.getE2elNs();
        long[] itlNs = m.getItlNs().stream().mapToLong(Long::longValue).toArray();
        return new RequestValues(
                m.getSuccess(),
                sentNs,
                Math.max(m.getFinishedEpochNs(), sentNs + e2elNs),
                m.getQueueDelayNs(),
                firstArrived,
                firstArrived ? m.getTtftNs() : 0,
                e2elNs,
                optional(m.getTpotNs()),
                optional(m.getTokenLatencyNs()),
                itlNs,
                m.getPromptLen(),
                m.getOutputTokens(),
                m.getClientQueueNs() == null ? OptionalLong.empty() : OptionalLong.of(m.getClientQueueNs()),
                m.getCachedTokens() == null ? OptionalInt.empty() : OptionalInt.of(m.getCachedTokens()),
                m.getInputAudioDurationS());
    }

    /** The record's reasoning values (extension); a record from an older writer has none. */
    public static RequestReasoning reasoning(RequestMetrics m) {
        return new RequestReasoning(
                m.getTtfoNs() == null ? OptionalLong.empty() : OptionalLong.of(m.getTtfoNs()),
                m.getReasoningEvents(),
                m.getReasoningTokens() == null ? OptionalInt.empty() : OptionalInt.of(m.getReasoningTokens()));
    }

    /**
     * A builder holding {@code values}: success, token counts, latencies, ITL samples and the send and
     * finish times. The caller adds the request's identity, status, error, connect time and text.
     */
    public static RequestMetrics.Builder record(RequestValues values) {
        boolean anyEvent = values.firstArrived();
        return RequestMetrics.newBuilder()
                .setSuccess(values.success())
                .setPromptLen(values.promptTokens())
                .setOutputTokens(values.outputTokens())
                .setTtftNs(anyEvent ? values.ttftNs() : null)
                // a pooling answer has no event but an E2EL: kept; a request with neither has none
                .setE2elNs(anyEvent || values.e2elNs() > 0 ? values.e2elNs() : null)
                .setTpotNs(nullable(values.tpotNs()))
                .setTokenLatencyNs(nullable(values.tokenLatencyNs()))
                .setQueueDelayNs(values.queueDelayNs())
                .setClientQueueNs(
                        values.clientQueueNs().isPresent()
                                ? values.clientQueueNs().getAsLong()
                                : null)
                .setCachedTokens(
                        values.cachedTokens().isPresent()
                                ? values.cachedTokens().getAsInt()
                                : null)
                .setInputAudioDurationS(values.inputAudioSeconds())
                .setItlNs(boxed(values.itlNs()))
                .setSentEpochNs(values.sentNs())
                .setFinishedEpochNs(values.finishedNs());
    }

    private static OptionalDouble optional(Double value) {
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    private static Double nullable(OptionalDouble value) {
        return value.isPresent() ? value.getAsDouble() : null;
    }

    private static List<Long> boxed(long[] values) {
        List<Long> list = new ArrayList<>(values.length);
        for (long v : values) {
            list.add(v);
        }
        return list;
    }
}
