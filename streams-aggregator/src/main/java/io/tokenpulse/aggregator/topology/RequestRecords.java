package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.RequestTiming;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps a request's Avro records to its {@link RequestMetrics} through the metric package's
 * {@link RequestTiming} / {@link RequestValues}: the formulas live in {@code metrics}, only field
 * plumbing lives here. The way back, for scoring a run, is {@code results.RunScoring.timing}.
 */
final class RequestRecords {
    private RequestRecords() {
    }

    /**
     * The metrics of one finished request. {@code eventOffsetNs} are its chunks' {@code offset_ns}
     * (ns after sent) in stream order. The epoch fields of the result still hold offsets from the
     * shard's schedule start (see {@link EpochResolver}). A timing the metric math rejects
     * (e.g. events before the send) becomes a failed request whose error says why, so the run can
     * still complete.
     */
    static RequestMetrics metrics(RequestEvent event, long[] eventOffsetNs) {
        RequestFinished f = (RequestFinished) event.getEvent();
        long sentNs = f.getSentOffsetNs();
        long[] eventNs = new long[eventOffsetNs.length];
        for (int i = 0; i < eventNs.length; i++) {
            eventNs[i] = sentNs + eventOffsetNs[i];
        }
        long lastNs = f.getLastNs() == null ? sentNs : sentNs + f.getLastNs();
        RequestMetrics.Builder out = RequestMetrics.newBuilder()
                .setRunId(event.getRunId())
                .setShardIndex(event.getShardIndex())
                .setRequestIndex(event.getRequestIndex())
                .setRequestId(event.getRequestId())
                .setHttpStatus(f.getHttpStatus())
                .setPromptLen(f.getPromptLen())
                .setOutputTokens(f.getOutputTokens())
                .setConnectNs(f.getConnectNs())
                .setSentEpochNs(sentNs)
                .setFinishedEpochNs(Math.max(f.getFinishedOffsetNs(), lastNs))
                .setGeneratedText(f.getGeneratedText());
        RequestValues v;
        try {
            v = RequestValues.of(new RequestTiming(f.getSuccess(), f.getScheduledOffsetNs(), sentNs, eventNs,
                    lastNs, Math.max(f.getFinishedOffsetNs(), lastNs), f.getPromptLen(), f.getOutputTokens()));
        } catch (IllegalArgumentException e) {
            return out.setSuccess(false)
                    .setError("impossible timing from the load generator: " + e.getMessage())
                    .setQueueDelayNs(0)
                    .setItlNs(List.of())
                    .build();
        }
        boolean anyEvent = eventNs.length > 0;
        return out.setSuccess(v.success())
                .setError(f.getError())
                .setTtftNs(anyEvent ? v.ttftNs() : null)
                .setE2elNs(anyEvent ? v.e2elNs() : null)
                .setTpotNs(v.tpotNs().isPresent() ? v.tpotNs().getAsDouble() : null)
                .setTokenLatencyNs(v.tokenLatencyNs().isPresent() ? v.tokenLatencyNs().getAsDouble() : null)
                .setQueueDelayNs(v.queueDelayNs())
                .setItlNs(boxed(v.itlNs()))
                .build();
    }

    private static List<Long> boxed(long[] values) {
        List<Long> list = new ArrayList<>(values.length);
        for (long v : values) {
            list.add(v);
        }
        return list;
    }
}
