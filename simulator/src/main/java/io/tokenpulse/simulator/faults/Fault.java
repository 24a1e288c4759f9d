package io.tokenpulse.simulator.faults;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.tokenpulse.simulator.wire.BadRequestException;

/**
 * The faults of one response: asked for by the request header {@value #HEADER}, or drawn from the
 * server's {@link FaultPlan}. Header items, separated by commas:
 * <ul>
 *   <li>{@code status=503} answers with that status (400..599) and an OpenAI-style error body;
 *       {@code retry-after=S} sets the Retry-After of a 429 (default 1);</li>
 *   <li>{@code reset-after=N} resets the TCP connection (RST) after N SSE events;</li>
 *   <li>{@code stall-ms=MS} (with {@code stall-after=N}, default 1) holds every event after the N-th for MS ms;</li>
 *   <li>{@code malformed-at=N} makes the N-th event's JSON invalid (1 is the first event);</li>
 *   <li>{@code oversized} makes the first token event longer than 10 MiB;</li>
 *   <li>{@code tokens-per-event=K} sends K tokens in each event;</li>
 *   <li>{@code split-utf8} gives every token a multi-byte character and writes each event in two
 *       parts split inside it;</li>
 *   <li>{@code no-done} leaves out the event a complete stream ends with: {@code data: [DONE]}, or for
 *       the Responses and Messages APIs {@code response.completed} / {@code message_stop};</li>
 *   <li>{@code role-only-first} sends a first event without any text: chat's role without content,
 *       completions' empty text.</li>
 * </ul>
 */
@RecordBuilder
public record Fault(
        int status,
        int retryAfterSeconds,
        int resetAfterEvents,
        int stallAfterEvents,
        long stallMs,
        int malformedEvent,
        boolean oversized,
        int tokensPerEvent,
        boolean splitUtf8,
        boolean noDone,
        boolean roleOnlyFirst)
        implements FaultBuilder.With {

    public static final String HEADER = "x-simulator-fault";
    static final Fault NONE = new Fault(0, 1, 0, 1, 0, 0, false, 1, false, false, false);
    /** Just past 10 MiB: beyond the event size clients commonly cap. */
    public static final int OVERSIZED_EVENT_BYTES = 10 * 1024 * 1024 + 1;

    public Fault {
        if (status != 0 && (status < 400 || status > 599)) {
            throw new IllegalArgumentException("fault status must be 400..599, got " + status);
        }
        if (retryAfterSeconds < 0
                || resetAfterEvents < 0
                || stallAfterEvents < 0
                || stallMs < 0
                || malformedEvent < 0) {
            throw new IllegalArgumentException("fault counts and durations must be >= 0");
        }
        if (tokensPerEvent < 1) {
            throw new IllegalArgumentException("tokens per event must be >= 1, got " + tokensPerEvent);
        }
    }

    public static Fault parse(String header) throws BadRequestException {
        if (header == null || header.isBlank()) {
            return NONE;
        }
        Fault fault = NONE;
        for (String item : header.split(",")) {
            String[] kv = item.strip().split("=", 2);
            try {
                fault = switch (kv[0]) {
                    case "status" -> fault.withStatus(Integer.parseInt(kv[1]));
                    case "retry-after" ->
                        new Fault(
                                fault.status,
                                Integer.parseInt(kv[1]),
                                fault.resetAfterEvents,
                                fault.stallAfterEvents,
                                fault.stallMs,
                                fault.malformedEvent,
                                fault.oversized,
                                fault.tokensPerEvent,
                                fault.splitUtf8,
                                fault.noDone,
                                fault.roleOnlyFirst);
                    case "reset-after" -> fault.withResetAfterEvents(Integer.parseInt(kv[1]));
                    case "stall-ms" -> fault.withStallMs(Long.parseLong(kv[1]));
                    case "stall-after" -> fault.withStallAfterEvents(Integer.parseInt(kv[1]));
                    case "malformed-at" -> fault.withMalformedEvent(Integer.parseInt(kv[1]));
                    case "tokens-per-event" -> fault.withTokensPerEvent(Integer.parseInt(kv[1]));
                    case "oversized" -> fault.withOversized(true);
                    case "split-utf8" -> fault.withSplitUtf8(true);
                    case "no-done" -> fault.withNoDone(true);
                    case "role-only-first" -> fault.withRoleOnlyFirst(true);
                    default ->
                        throw new BadRequestException(HEADER + ": unknown fault '" + kv[0] + "', use status, "
                                + "retry-after, reset-after, stall-ms, stall-after, malformed-at, tokens-per-event, "
                                + "oversized, split-utf8, no-done or role-only-first");
                };
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                throw new BadRequestException(
                        HEADER + ": '" + item.strip() + "' needs a number, like status=503 or reset-after=3");
            } catch (IllegalArgumentException e) {
                throw new BadRequestException(HEADER + ": " + e.getMessage());
            }
        }
        return fault;
    }

    public boolean failsBeforeStreaming() {
        return status != 0;
    }
}
