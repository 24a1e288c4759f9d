package io.tokenpulse.simulator.faults;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Faults injected at random: each rate is the probability (0..1) that a request gets that fault,
 * drawn independently per request from {@code seed} and the request's arrival number, so a run
 * with the same seed and order injects the same faults. A request's {@code x-simulator-fault}
 * header adds to what is drawn.
 *
 * @param status500Rate      answer 500
 * @param status503Rate      answer 503
 * @param status429Rate      answer 429 with Retry-After {@code retryAfterSeconds}
 * @param resetRate          reset the connection after {@code resetAfterEvents} events
 * @param stallRate          hold the events after the first for {@code stallMs}
 * @param malformedRate      make the second event's JSON invalid
 * @param oversizedRate      make the first token event longer than 10 MiB
 * @param splitUtf8Rate      split a multi-byte character across two writes in every event
 * @param noDoneRate         leave out {@code data: [DONE]} (Responses, Messages: the closing event)
 * @param tokensPerEvent     tokens per event for every request (1 as vLLM streams)
 * @param roleOnlyFirst      every stream starts with an event without text
 */
public record FaultPlan(
        double status500Rate,
        double status503Rate,
        double status429Rate,
        int retryAfterSeconds,
        double resetRate,
        int resetAfterEvents,
        double stallRate,
        long stallMs,
        double malformedRate,
        double oversizedRate,
        double splitUtf8Rate,
        double noDoneRate,
        int tokensPerEvent,
        boolean roleOnlyFirst,
        long seed) {

    static final int DEFAULT_RESET_AFTER_EVENTS = 3;
    static final long DEFAULT_STALL_MS = 5000;

    public static final FaultPlan NONE =
            new FaultPlan(0, 0, 0, 1, 0, DEFAULT_RESET_AFTER_EVENTS, 0, 0, 0, 0, 0, 0, 1, false, 0);

    public FaultPlan {
        double[] rates = {
            status500Rate,
            status503Rate,
            status429Rate,
            resetRate,
            stallRate,
            malformedRate,
            oversizedRate,
            splitUtf8Rate,
            noDoneRate
        };
        for (double rate : rates) {
            if (!(rate >= 0 && rate <= 1)) {
                throw new IllegalArgumentException("fault rates are probabilities in 0..1, got " + rate);
            }
        }
        if (status500Rate + status503Rate + status429Rate > 1) {
            throw new IllegalArgumentException("the 500, 503 and 429 rates must add up to at most 1");
        }
        if (retryAfterSeconds < 0 || resetAfterEvents < 1 || stallMs < 0 || tokensPerEvent < 1) {
            throw new IllegalArgumentException(
                    "retry-after must be >= 0 s, reset-after >= 1 event, stall >= 0 ms " + "and tokens per event >= 1");
        }
    }

    /** What {@link #parse} accepts, for messages and help texts. */
    public static final String SPEC_SYNTAX = "500, 503, 429[=RETRY_AFTER_S], reset[=AFTER_EVENTS], stall[=MS], "
            + "malformed, oversized, split-utf8 or no-done, each with an optional :PROBABILITY (default 1); "
            + "or role-only-first, tokens-per-event=K (every request)";

    /**
     * A plan from specs {@code KIND[=VALUE][:PROBABILITY]} (see {@link #SPEC_SYNTAX}), e.g.
     * {@code 500:0.1}, {@code stall=2000:0.05}, {@code tokens-per-event=3}: the probability defaults
     * to 1; {@code reset} defaults to {@value #DEFAULT_RESET_AFTER_EVENTS} events, {@code stall} to
     * {@value #DEFAULT_STALL_MS} ms, {@code 429}'s Retry-After to 1 s.
     *
     * @throws IllegalArgumentException naming the spec to change
     */
    public static FaultPlan parse(List<String> specs, long seed) {
        double[] rates = new double[9];
        int retryAfterSeconds = 1;
        int resetAfterEvents = DEFAULT_RESET_AFTER_EVENTS;
        long stallMs = 0;
        int tokensPerEvent = 1;
        boolean roleOnlyFirst = false;
        Set<String> seen = new HashSet<>();
        for (String spec : specs) {
            int colon = spec.lastIndexOf(':');
            String kindValue =
                    colon < 0 ? spec.strip() : spec.substring(0, colon).strip();
            int eq = kindValue.indexOf('=');
            String kind = eq < 0 ? kindValue : kindValue.substring(0, eq);
            String value = eq < 0 ? null : kindValue.substring(eq + 1);
            if (!seen.add(kind)) {
                throw new IllegalArgumentException("fault '" + kind + "' is given twice; give each kind once");
            }
            try {
                double rate = colon < 0 ? 1 : Double.parseDouble(spec.substring(colon + 1));
                if (!(rate >= 0 && rate <= 1)) {
                    throw new IllegalArgumentException("fault '" + spec + "': the probability must be in 0..1");
                }
                boolean valueAllowed = switch (kind) {
                    case "429", "reset", "stall", "tokens-per-event" -> true;
                    default -> false;
                };
                if (value != null && !valueAllowed) {
                    throw new IllegalArgumentException("fault '" + spec + "' takes no =VALUE");
                }
                switch (kind) {
                    case "500" -> rates[0] = rate;
                    case "503" -> rates[1] = rate;
                    case "429" -> {
                        rates[2] = rate;
                        retryAfterSeconds = value == null ? retryAfterSeconds : Integer.parseInt(value);
                    }
                    case "reset" -> {
                        rates[3] = rate;
                        resetAfterEvents = value == null ? resetAfterEvents : Integer.parseInt(value);
                    }
                    case "stall" -> {
                        rates[4] = rate;
                        stallMs = value == null ? DEFAULT_STALL_MS : Long.parseLong(value);
                    }
                    case "malformed" -> rates[5] = rate;
                    case "oversized" -> rates[6] = rate;
                    case "split-utf8" -> rates[7] = rate;
                    case "no-done" -> rates[8] = rate;
                    case "role-only-first", "tokens-per-event" -> {
                        // The plan has no probability for these: they shape every stream.
                        if (rate != 1) {
                            throw new IllegalArgumentException(
                                    "fault '" + spec + "' applies to every request; drop the :PROBABILITY");
                        }
                        if (kind.equals("role-only-first")) {
                            roleOnlyFirst = true;
                        } else if (value == null) {
                            throw new IllegalArgumentException(
                                    "fault '" + spec + "' needs a count, like tokens-per-event=3");
                        } else {
                            tokensPerEvent = Integer.parseInt(value);
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown fault '" + spec + "'; use " + SPEC_SYNTAX);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "fault '" + spec + "' needs numbers, like 500:0.1 or stall=2000:0.05");
            }
        }
        return new FaultPlan(
                rates[0],
                rates[1],
                rates[2],
                retryAfterSeconds,
                rates[3],
                resetAfterEvents,
                rates[4],
                stallMs,
                rates[5],
                rates[6],
                rates[7],
                rates[8],
                tokensPerEvent,
                roleOnlyFirst,
                seed);
    }

    /** A drawer of per-request faults; one per server so that numbering starts at 0 with each run. */
    public Drawer drawer() {
        return new Drawer(this);
    }

    public static final class Drawer {
        private final FaultPlan plan;
        private final AtomicLong requests = new AtomicLong();

        private Drawer(FaultPlan plan) {
            this.plan = plan;
        }

        /** The next request's faults, on top of those its header asked for. */
        public Fault next(Fault requested) {
            SplittableRandom random =
                    new SplittableRandom(plan.seed() * 0xBF58476D1CE4E5B9L + requests.getAndIncrement());
            Fault fault = requested;
            if (plan.tokensPerEvent() > 1 && fault.tokensPerEvent() == 1) {
                fault = fault.withTokensPerEvent(plan.tokensPerEvent());
            }
            if (plan.roleOnlyFirst()) {
                fault = fault.withRoleOnlyFirst(true);
            }
            double statusDraw = random.nextDouble();
            if (fault.status() == 0) {
                if (statusDraw < plan.status500Rate()) {
                    fault = fault.withStatus(500);
                } else if (statusDraw < plan.status500Rate() + plan.status503Rate()) {
                    fault = fault.withStatus(503);
                } else if (statusDraw < plan.status500Rate() + plan.status503Rate() + plan.status429Rate()) {
                    fault = new Fault(
                            429,
                            plan.retryAfterSeconds(),
                            fault.resetAfterEvents(),
                            fault.stallAfterEvents(),
                            fault.stallMs(),
                            fault.malformedEvent(),
                            fault.oversized(),
                            fault.tokensPerEvent(),
                            fault.splitUtf8(),
                            fault.noDone(),
                            fault.roleOnlyFirst());
                }
            }
            // every draw is taken whether used or not, so one rate's change leaves the others' picks alone
            boolean reset = random.nextDouble() < plan.resetRate();
            boolean stall = random.nextDouble() < plan.stallRate();
            boolean malformed = random.nextDouble() < plan.malformedRate();
            boolean oversized = random.nextDouble() < plan.oversizedRate();
            boolean split = random.nextDouble() < plan.splitUtf8Rate();
            boolean noDone = random.nextDouble() < plan.noDoneRate();
            if (reset && fault.resetAfterEvents() == 0) {
                fault = fault.withResetAfterEvents(plan.resetAfterEvents());
            }
            if (stall && fault.stallMs() == 0) {
                fault = fault.withStallAfterEvents(1).withStallMs(plan.stallMs());
            }
            if (malformed && fault.malformedEvent() == 0) {
                fault = fault.withMalformedEvent(2);
            }
            if (oversized) {
                fault = fault.withOversized(true);
            }
            if (split) {
                fault = fault.withSplitUtf8(true);
            }
            if (noDone) {
                fault = fault.withNoDone(true);
            }
            return fault;
        }
    }
}
