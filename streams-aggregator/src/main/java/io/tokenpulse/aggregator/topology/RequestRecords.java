package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.RequestTiming;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.aggregator.records.RequestMetricsMapper;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Turns a request's finish and its chunks' arrival offsets into its {@link RequestMetrics}: the one
 * place the per-request values are derived ({@link RequestValues#of}); they reach the record through
 * {@link RequestMetricsMapper}, and every later step reads them back from the record the same way.
 */
final class RequestRecords {
    private RequestRecords() {}

    /**
     * The metrics of one finished request. {@code eventOffsetNs} are its chunks' {@code offset_ns}
     * (ns after sent) in stream order; with the finish's {@code sent_offset_ns} they give the event
     * times on the shard's clock (ns after its schedule start), and so do the record's send and finish
     * times until {@link RunSummarizer} re-anchors them on the epoch. A timing the metric math rejects
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
        long finishedNs = Math.max(f.getFinishedOffsetNs(), lastNs);
        // a writer's odd duration never fails the request: it counts as no audio
        double audioSeconds = f.getInputAudioDurationS() > 0 && Double.isFinite(f.getInputAudioDurationS())
                ? f.getInputAudioDurationS()
                : 0;
        RequestValues values;
        String error = f.getError();
        try {
            values = RequestValues.of(new RequestTiming(
                            f.getSuccess(),
                            f.getScheduledOffsetNs(),
                            sentNs,
                            eventNs,
                            lastNs,
                            finishedNs,
                            f.getPromptLen(),
                            f.getOutputTokens(),
                            // kept inside [scheduled, sent] so a writer's odd permit never fails the request
                            Math.min(Math.max(f.getPermitOffsetNs(), f.getScheduledOffsetNs()), sentNs)))
                    .withCachedTokens(
                            f.getCachedTokens() == null ? OptionalInt.empty() : OptionalInt.of(f.getCachedTokens()))
                    .withInputAudioSeconds(audioSeconds);
        } catch (IllegalArgumentException e) {
            error = "impossible timing from the load generator: " + e.getMessage();
            values = new RequestValues(
                    false,
                    sentNs,
                    Math.max(finishedNs, sentNs),
                    0,
                    false,
                    0,
                    0,
                    OptionalDouble.empty(),
                    OptionalDouble.empty(),
                    new long[0],
                    Math.max(0, f.getPromptLen()),
                    Math.max(0, f.getOutputTokens()),
                    OptionalLong.empty(),
                    OptionalInt.empty(),
                    audioSeconds);
        }
        return RequestMetricsMapper.record(values)
                .setRunId(event.getRunId())
                .setShardIndex(event.getShardIndex())
                .setRequestIndex(event.getRequestIndex())
                .setRequestId(event.getRequestId())
                .setHttpStatus(f.getHttpStatus())
                .setError(error)
                .setConnectNs(f.getConnectNs())
                .setGeneratedText(f.getGeneratedText())
                .setModel(f.getModel())
                // a reasoning model's figures are the load generator's, copied as they are
                .setTtfoNs(f.getFirstAnswerNs())
                .setReasoningEvents(f.getReasoningEvents())
                .setReasoningTokens(f.getReasoningTokens())
                // a session's turn: kept so that the summary can score each turn index on its own
                .setSessionId(f.getSessionId())
                .setTurnIndex(f.getTurnIndex())
                .setProbe(f.getProbe())
                // which events the tools that count only text skip (rescore's definitions)
                .setEmptyTextEvents(f.getEmptyTextEvents())
                .build();
    }
}
