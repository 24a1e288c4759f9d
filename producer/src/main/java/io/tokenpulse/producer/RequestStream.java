package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.RequestOutcome;
import io.tokenpulse.producer.backend.ResponseTracker;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestStarted;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One benchmark request's records: RequestStarted when the response starts (or the request
 * fails first), one Chunk per timing event straight from the I/O callback, and RequestFinished
 * at the end, every one handed to the sink without waiting.
 *
 * <p>RequestStarted is published once the status line arrived rather than just before the write:
 * serializing a record there would sit between {@code sent} and the bytes leaving.
 *
 * <p>RequestFinished (docs/metrics.md, per-request values): output tokens are
 * {@code usage.completion_tokens} when the server reported a count above 0, else the tokenizer's
 * count of the generated text plus a reasoning model's thinking (done off the I/O thread); the thinking's
 * share is {@code usage.completion_tokens_details.reasoning_tokens} when reported, else the tokenizer's
 * count of the thinking; prompt length is
 * {@code usage.prompt_tokens} when reported, else the dataset's count. A request that was never
 * written (connect failed) reports {@code sent} as the moment it was handed to the client.
 * {@code input_audio_duration_s} is the backend's length of the audio it sends for the prompt, recorded for
 * a failure too, as vLLM does (only successful requests count towards RTFx).
 * Offsets count from the shard's schedule start; {@code first_ns}/{@code last_ns} and chunk
 * offsets from {@code sent}.
 *
 * <p>Threading: I/O-thread confined, like its {@link StreamReader}; the state it keeps lives only
 * until the request finished.
 */
final class RequestStream extends StreamReader {

    private static final Logger LOG = LoggerFactory.getLogger(RequestStream.class);

    private final RunContext run;
    private final int index;
    private final String requestId;
    private final int datasetPromptLen;
    private final int expectedOutputLen;
    private final long scheduledOffsetNs;
    private final long permitNs;
    private final long launchedNs;
    private final PlannedRequest.SessionTurn turn;
    private final EndListener endListener;
    private final boolean probe;
    private final double inputAudioSeconds;
    private boolean startPublished;

    /** Told when the request's stream ended, on the I/O thread, before its records are published. */
    @FunctionalInterface
    interface EndListener {
        /**
         * @param outcome how it ended, with the generated text
         * @param endNs {@link System#nanoTime()} at the end
         */
        void ended(RequestOutcome outcome, long endNs);
    }

    /**
     * @param scheduledOffsetNs the request's slot, ns after the schedule start
     * @param permitNs when it got its permit, or {@link Dispatcher#NO_LIMIT}
     * @param launchedNs when it was handed to the HTTP client
     * @param endListener told when the stream ended (releases the permit, or plays a session's next turn)
     * @param probe a {@code --probe-request-rate} request ({@link ProbeSender})
     */
    RequestStream(
            RunContext run,
            ResponseTracker tracker,
            PlannedRequest request,
            String requestId,
            long permitNs,
            long launchedNs,
            EndListener endListener,
            boolean probe) {
        super(tracker);
        this.probe = probe;
        this.run = run;
        this.index = request.index();
        this.requestId = requestId;
        this.datasetPromptLen = request.sample().promptLen();
        this.expectedOutputLen = request.sample().expectedOutputLen();
        this.scheduledOffsetNs = request.offsetNs();
        this.permitNs = permitNs;
        this.launchedNs = launchedNs;
        this.turn = request.turn();
        this.endListener = endListener;
        this.inputAudioSeconds =
                run.inputAudioSeconds().applyAsDouble(request.sample().prompt());
    }

    @Override
    void responseStarted() {
        publishStarted();
    }

    @Override
    void chunk(ResponseTracker.Step step, long arrivalNs, int bytes) {
        // Setters rather than Chunk.newBuilder(): the builder allocates its field table and flags per
        // record, and every field is set here anyway (the setters take primitives: no boxing).
        Chunk chunk = new Chunk();
        chunk.setRunId(run.runId());
        chunk.setShardIndex(run.shardIndex());
        chunk.setRequestIndex(index);
        chunk.setSeq(step.seq());
        chunk.setOffsetNs(arrivalNs - effectiveSentNs());
        chunk.setGapNs(step.gapNs());
        chunk.setArrivedEpochNs(run.anchor().epochNs(arrivalNs));
        chunk.setTokens(step.tokens());
        chunk.setBytes(bytes);
        run.sink().publishChunk(chunk);
        run.tally().chunkPublished();
        if (step.seq() == 0) {
            run.firstTokens().firstToken(arrivalNs - effectiveSentNs());
        }
    }

    @Override
    void ended(RequestOutcome outcome, long endNs) {
        publishStarted();
        run.onEnd().run();
        endListener.ended(outcome, endNs);
        Integer reported = outcome.reportedOutputTokens();
        Integer reportedReasoning =
                outcome.usage() == null ? null : outcome.usage().reasoningTokens();
        String thinking = outcome.reasoning().text();
        boolean countOutput = reported == null && !(outcome.generatedText().isEmpty() && thinking.isEmpty());
        boolean countThinking = !thinking.isEmpty() && (countOutput || reportedReasoning == null);
        if (!countOutput && !countThinking) {
            publishFinished(outcome, reported == null ? 0 : reported, reportedReasoning, endNs);
        } else {
            run.counting().execute(() -> {
                int thinkingTokens = countThinking ? countTokens(thinking) : 0;
                // a reasoning model's thinking is output too: counted beside the answer
                int output = countOutput ? countTokens(outcome.generatedText()) + thinkingTokens : reported;
                Integer reasoning = reportedReasoning != null
                        ? reportedReasoning
                        : countThinking ? Integer.valueOf(Math.min(thinkingTokens, output)) : null;
                publishFinished(outcome, output, reasoning, endNs);
            });
        }
    }

    /** A tokenizer failure must not lose the request's record (the run waits for every one). */
    private int countTokens(String text) {
        try {
            return run.tokenizer().countTokens(text);
        } catch (RuntimeException e) {
            LOG.warn("request {}: counting the output tokens failed, reporting 0: {}", requestId, e.toString());
            return 0;
        }
    }

    private void publishStarted() {
        if (startPublished) {
            return;
        }
        startPublished = true;
        run.sink()
                .publishRequest(event(RequestStarted.newBuilder()
                        .setPromptLen(datasetPromptLen)
                        .setExpectedOutputLen(expectedOutputLen)
                        .setScheduledOffsetNs(scheduledOffsetNs)
                        .setPermitOffsetNs(run.anchor().offsetNs(effectivePermitNs()))
                        .setSentOffsetNs(run.anchor().offsetNs(effectiveSentNs()))
                        .setConnectNs(connectNs())
                        .build()));
    }

    /** @param reasoningTokens the thinking's share of {@code outputTokens}; null when unknown */
    private void publishFinished(RequestOutcome outcome, int outputTokens, Integer reasoningTokens, long endNs) {
        long sentNs = effectiveSentNs();
        Integer usagePrompt = outcome.usage() == null ? null : outcome.usage().promptTokens();
        Integer usageCompletion =
                outcome.usage() == null ? null : outcome.usage().completionTokens();
        run.sink()
                .publishRequest(event(RequestFinished.newBuilder()
                        .setSuccess(outcome.success())
                        .setHttpStatus(outcome.httpStatus())
                        .setError(outcome.error())
                        .setPromptLen(usagePrompt != null ? usagePrompt : datasetPromptLen)
                        .setOutputTokens(outputTokens)
                        .setUsagePromptTokens(usagePrompt)
                        .setUsageCompletionTokens(usageCompletion)
                        .setChunkEvents(outcome.chunkEvents())
                        .setScheduledOffsetNs(scheduledOffsetNs)
                        .setPermitOffsetNs(run.anchor().offsetNs(effectivePermitNs()))
                        .setSentOffsetNs(run.anchor().offsetNs(sentNs))
                        .setConnectNs(connectNs())
                        .setFirstNs(outcome.firstNs() == null ? null : outcome.firstNs() - sentNs)
                        .setLastNs(outcome.lastNs() == null ? null : outcome.lastNs() - sentNs)
                        .setFinishedOffsetNs(run.anchor().offsetNs(endNs))
                        .setGeneratedText(run.keepGeneratedText() ? outcome.generatedText() : null)
                        .setModel(run.requestModel().apply(index))
                        .setFirstAnswerNs(
                                outcome.reasoning().firstAnswerNs() == null
                                        ? null
                                        : outcome.reasoning().firstAnswerNs() - sentNs)
                        .setReasoningEvents(outcome.reasoning().events())
                        .setReasoningTokens(reasoningTokens)
                        .setSessionId(turn == null ? null : turn.sessionId())
                        .setTurnIndex(turn == null ? null : turn.turnIndex())
                        .setProbe(probe)
                        .setEmptyTextEvents(outcome.emptyTextEvents())
                        .setInputAudioDurationS(inputAudioSeconds)
                        .setCachedTokens(
                                outcome.usage() == null ? null : outcome.usage().cachedTokens())
                        .build()));
        if (probe) {
            run.tally().probeFinished(outcome.success(), outcome.error());
        } else {
            run.tally().finished(outcome.success(), outcome.error(), endNs);
        }
    }

    private RequestEvent event(Object startedOrFinished) {
        return RequestEvent.newBuilder()
                .setRunId(run.runId())
                .setShardIndex(run.shardIndex())
                .setRequestIndex(index)
                .setRequestId(requestId)
                .setEvent(startedOrFinished)
                .build();
    }

    /** {@code sent}; for a request never written, when it was handed to the client. */
    private long effectiveSentNs() {
        return sentNs() >= 0 ? sentNs() : launchedNs;
    }

    /** {@code permit}; without a concurrency limit it equals {@code sent} (docs/metrics.md). */
    private long effectivePermitNs() {
        return permitNs == Dispatcher.NO_LIMIT ? effectiveSentNs() : permitNs;
    }
}
