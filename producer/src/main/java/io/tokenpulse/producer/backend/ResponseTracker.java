package io.tokenpulse.producer.backend;

import java.util.ArrayList;
import java.util.List;

/**
 * The state of one streamed response: turns each data event into a timing step and, at the
 * end, into the request's outcome (docs/metrics.md, timing points and what counts as failed).
 *
 * <ul>
 *   <li>{@code first} is the first event with a non-empty {@code choices} array, even when its
 *       text is empty (e.g. chat's role-only first chunk); each later such event is one ITL
 *       sample, measured from the previous such event.</li>
 *   <li>{@code last} is the last {@code choices} event for completions; for chat, any later
 *       well-formed event (the trailing usage-only event) moves it, as in vLLM.</li>
 *   <li>Success needs HTTP 200, no error or unreadable event, and at least one {@code choices}
 *       event. vLLM counts a chat stream without any as a success with TTFT 0; here it fails,
 *       because a request without {@code first} has no TTFT to report.</li>
 * </ul>
 *
 * <p>TGI and TensorRT-LLM events are all timing events, as vLLM's clients count them; a
 * DeepSpeed-MII answer is not streamed ({@link #streamed()} false): its one JSON body is the one
 * timing event, so {@code first} = {@code last} = when the body was complete (TTFT = E2EL, no ITL).
 * A pooling answer ({@link #pooling}: embeddings, rerank, score) is not streamed either and has no
 * timing event at all: it succeeds with 0 chunk events.
 *
 * <p>Timestamps are the {@link System#nanoTime()} values the caller passes. Not thread-safe:
 * one tracker per request, fed on the connection's I/O thread.
 */
public final class ResponseTracker {

    private final EventParser reader;
    /** The OpenAI events' fast path (no Jackson, no String per event); null for the other wire formats. */
    private final OpenAiEventScan scan;
    /** What every event that is not a timing event returns. */
    private static final Step NOT_A_CHUNK = new Step(-1, 0, null);

    private final boolean anyEventMarksLast;
    private final boolean streamed;
    /** The event a complete stream ends with, which its absence fails the request for; null when none is required. */
    private final String closingEvent;
    /** A pooling answer: the whole body is the answer, with no timing event (see {@link #pooling}). */
    private final boolean pooling;
    /** When a pooling answer's body was read without an error; null before. */
    private Long answeredNs;

    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();

    private int chunks;
    /** Positions of the timing events that carried neither answer text nor thinking. */
    private final List<Integer> emptyTextEvents = new ArrayList<>(2);

    private int reasoningEvents;
    private Long firstAnswerNs;
    private long firstNs;
    private long previousChunkNs;
    private long lastNs;
    private StreamEvent.Usage usage;
    private Integer previousCompletionTokens;
    private String error;
    private boolean closed;
    private boolean finished;

    ResponseTracker(EventParser reader, boolean anyEventMarksLast, boolean streamed) {
        this(reader, anyEventMarksLast, streamed, null, false);
    }

    /**
     * @param closingEvent the type of the event a complete stream ends with (its reader marks it
     *     {@link StreamEvent#endsStream}); a stream that ends without it fails. Null when the API has none.
     */
    ResponseTracker(EventParser reader, boolean anyEventMarksLast, boolean streamed, String closingEvent) {
        this(reader, anyEventMarksLast, streamed, closingEvent, false);
    }

    private ResponseTracker(
            EventParser reader, boolean anyEventMarksLast, boolean streamed, String closingEvent, boolean pooling) {
        this.reader = reader;
        this.scan = reader instanceof EventReader openAi ? openAi.newScan() : null;
        this.anyEventMarksLast = anyEventMarksLast;
        this.streamed = streamed;
        this.closingEvent = closingEvent;
        this.pooling = pooling;
    }

    /**
     * A tracker for a pooling answer (embeddings, rerank, score): one JSON body and no generated
     * tokens, so no timing event and no chunk. A body {@code reader} reads without an error makes the
     * request a success with 0 chunk events whose {@code first} and {@code last} are both when the body
     * was complete (vLLM's pooling client sets TTFT = latency; here E2EL is that time and the
     * aggregator, seeing no chunk, reports TTFT 0 and no ITL).
     */
    static ResponseTracker pooling(EventParser reader) {
        return new ResponseTracker(reader, false, false, null, true);
    }

    /**
     * Whether the body is an SSE stream whose data payloads go to {@link #onEvent} one by one;
     * false when the whole body is one JSON document, given to {@link #onEvent} once it is complete.
     */
    public boolean streamed() {
        return streamed;
    }

    /**
     * Reads one event's payload ({@code data[offset, offset + length)}, UTF-8) that arrived at
     * {@code arrivalNs}. An unreadable or error event does not throw: it makes the request fail
     * at {@link #finish}.
     */
    public Step onEvent(byte[] data, int offset, int length, long arrivalNs) {
        if (finished) {
            throw new IllegalStateException("event after the response finished");
        }
        if (scan != null && scan.scan(data, offset, length)) {
            return onScanned(arrivalNs);
        }
        StreamEvent event = reader.read(data, offset, length);
        if (event.error() != null) {
            if (error == null) {
                error = event.error();
            }
            return NOT_A_CHUNK;
        }
        if (event.usage() != null) {
            usage = usage == null ? event.usage() : usage.updatedBy(event.usage());
        }
        if (event.endsStream()) {
            closed = true;
        }
        if (pooling) {
            answeredNs = arrivalNs;
            return NOT_A_CHUNK;
        }
        if (!event.hasChoices()) {
            if (anyEventMarksLast && chunks > 0) {
                lastNs = arrivalNs;
            }
            return NOT_A_CHUNK;
        }
        if (event.wholeText() != null) {
            text.setLength(0);
            text.append(event.wholeText());
        } else {
            text.append(event.text());
        }
        reasoning.append(event.reasoning());
        if (!event.reasoning().isEmpty()) {
            reasoningEvents++;
        }
        if (firstAnswerNs == null && !event.text().isEmpty()) {
            firstAnswerNs = arrivalNs;
        }
        return timingStep(
                arrivalNs,
                tokensOf(event.usage()),
                event.text().isEmpty() && event.reasoning().isEmpty());
    }

    /** {@link #onEvent} for an event the fast path read: the same rules, the text decoded straight into the buffers. */
    private Step onScanned(long arrivalNs) {
        StreamEvent.Usage eventUsage = scan.hasUsage ? scan.usage() : null;
        if (eventUsage != null) {
            usage = eventUsage;
        }
        if (!scan.hasChoices) {
            if (anyEventMarksLast && chunks > 0) {
                lastNs = arrivalNs;
            }
            return NOT_A_CHUNK;
        }
        boolean hasText = scan.textEnd > scan.textStart; // an escape decodes to at least one char
        scan.appendText(text);
        if (scan.reasoningEnd > scan.reasoningStart) {
            scan.appendReasoning(reasoning);
            reasoningEvents++;
        }
        if (firstAnswerNs == null && hasText) {
            firstAnswerNs = arrivalNs;
        }
        return timingStep(arrivalNs, tokensOf(eventUsage), !hasText && scan.reasoningEnd == scan.reasoningStart);
    }

    private Step timingStep(long arrivalNs, Integer tokens, boolean emptyText) {
        int seq = chunks++;
        if (emptyText) {
            emptyTextEvents.add(seq);
        }
        long gapNs = seq == 0 ? 0 : arrivalNs - previousChunkNs;
        if (seq == 0) {
            firstNs = arrivalNs;
        }
        previousChunkNs = arrivalNs;
        lastNs = arrivalNs;
        return new Step(seq, gapNs, tokens);
    }

    /** With continuous usage stats, the growth of completion_tokens is this event's tokens. */
    private Integer tokensOf(StreamEvent.Usage eventUsage) {
        if (eventUsage == null || eventUsage.completionTokens() == null) {
            return null;
        }
        int total = eventUsage.completionTokens();
        Integer tokens = total - (previousCompletionTokens == null ? 0 : previousCompletionTokens);
        previousCompletionTokens = total;
        return tokens;
    }

    /**
     * The outcome of a response whose body ended normally.
     *
     * @param httpStatus the response status
     * @param doneSeen whether the {@code [DONE]} sentinel arrived (reported, not required: vLLM
     *     does not require it either)
     */
    public RequestOutcome finish(int httpStatus, boolean doneSeen) {
        if (httpStatus != 200) {
            return fail(httpStatus, "HTTP " + httpStatus);
        }
        if (error != null) {
            return fail(httpStatus, error, doneSeen);
        }
        if (closingEvent != null && !closed) {
            return fail(httpStatus, "stream ended without " + closingEvent, doneSeen);
        }
        if (pooling) {
            return answered(httpStatus);
        }
        if (chunks == 0) {
            return fail(httpStatus, "no streamed event carried choices", doneSeen);
        }
        finished = true;
        return new RequestOutcome(
                true,
                httpStatus,
                "",
                chunks,
                firstNs,
                lastNs,
                usage,
                text.toString(),
                doneSeen,
                reasoningSeen(),
                List.copyOf(emptyTextEvents));
    }

    private RequestOutcome answered(int httpStatus) {
        if (answeredNs == null) {
            return fail(httpStatus, "the response had no body", false);
        }
        finished = true;
        return new RequestOutcome(
                true,
                httpStatus,
                "",
                0,
                answeredNs,
                answeredNs,
                usage,
                "",
                false,
                RequestOutcome.Reasoning.NONE,
                List.of());
    }

    /**
     * The outcome of a response that failed outside the stream (connection reset, timeout,
     * an error status with a body worth quoting). Keeps the timing seen so far.
     *
     * @param httpStatus the response status, 0 when none arrived
     * @param reason one line saying what went wrong
     */
    public RequestOutcome fail(int httpStatus, String reason) {
        return fail(httpStatus, reason, false);
    }

    private RequestOutcome fail(int httpStatus, String reason, boolean doneSeen) {
        finished = true;
        return new RequestOutcome(
                false,
                httpStatus,
                reason,
                chunks,
                chunks == 0 ? null : firstNs,
                chunks == 0 ? null : lastNs,
                usage,
                text.toString(),
                doneSeen,
                reasoningSeen(),
                List.copyOf(emptyTextEvents));
    }

    private RequestOutcome.Reasoning reasoningSeen() {
        return new RequestOutcome.Reasoning(reasoning.toString(), reasoningEvents, firstAnswerNs);
    }

    /**
     * What one event meant for timing.
     *
     * @param seq position among the request's timing events (0 = {@code first}), or -1 when the
     *     event is not one (usage-only, error or unreadable): publish a chunk only for
     *     {@code seq >= 0}
     * @param gapNs ns since the previous timing event (an ITL sample); 0 for the first and for
     *     non-timing events
     * @param tokens tokens the event carried when the server reports usage per event, else null
     */
    public record Step(int seq, long gapNs, Integer tokens) {

        /** Whether this event is a timing event ({@code first} or an {@code event_i}). */
        public boolean isChunk() {
            return seq >= 0;
        }
    }
}
