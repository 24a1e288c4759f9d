package io.tokenpulse.simulator;

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
 * @param noDoneRate         leave out {@code data: [DONE]}
 * @param tokensPerEvent     tokens per event for every request (1 as vLLM streams)
 * @param roleOnlyFirst      every stream starts with an event without text
 */
public record FaultPlan(double status500Rate, double status503Rate, double status429Rate, int retryAfterSeconds,
                        double resetRate, int resetAfterEvents, double stallRate, long stallMs,
                        double malformedRate, double oversizedRate, double splitUtf8Rate, double noDoneRate,
                        int tokensPerEvent, boolean roleOnlyFirst, long seed) {

    public static final FaultPlan NONE = new FaultPlan(0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0, 1, false, 0);

    public FaultPlan {
        double[] rates = {status500Rate, status503Rate, status429Rate, resetRate, stallRate, malformedRate,
                oversizedRate, splitUtf8Rate, noDoneRate};
        for (double rate : rates) {
            if (!(rate >= 0 && rate <= 1)) {
                throw new IllegalArgumentException("fault rates are probabilities in 0..1, got " + rate);
            }
        }
        if (status500Rate + status503Rate + status429Rate > 1) {
            throw new IllegalArgumentException("the 500, 503 and 429 rates must add up to at most 1");
        }
        if (retryAfterSeconds < 0 || resetAfterEvents < 1 || stallMs < 0 || tokensPerEvent < 1) {
            throw new IllegalArgumentException("retry-after must be >= 0 s, reset-after >= 1 event, stall >= 0 ms "
                    + "and tokens per event >= 1");
        }
    }

    /** A drawer of per-request faults; one per server so that numbering starts at 0 with each run. */
    Drawer drawer() {
        return new Drawer(this);
    }

    static final class Drawer {
        private final FaultPlan plan;
        private final AtomicLong requests = new AtomicLong();

        private Drawer(FaultPlan plan) {
            this.plan = plan;
        }

        /** The next request's faults, on top of those its header asked for. */
        Fault next(Fault requested) {
            SplittableRandom random = new SplittableRandom(plan.seed() * 0xBF58476D1CE4E5B9L + requests.getAndIncrement());
            Fault fault = requested;
            if (plan.tokensPerEvent() > 1 && fault.tokensPerEvent() == 1) {
                fault = fault.withTokensPerEvent(plan.tokensPerEvent());
            }
            if (plan.roleOnlyFirst()) {
                fault = fault.withRoleOnlyFirst();
            }
            double statusDraw = random.nextDouble();
            if (fault.status() == 0) {
                if (statusDraw < plan.status500Rate()) {
                    fault = fault.withStatus(500);
                } else if (statusDraw < plan.status500Rate() + plan.status503Rate()) {
                    fault = fault.withStatus(503);
                } else if (statusDraw < plan.status500Rate() + plan.status503Rate() + plan.status429Rate()) {
                    fault = new Fault(429, plan.retryAfterSeconds(), fault.resetAfterEvents(), fault.stallAfterEvents(),
                            fault.stallMs(), fault.malformedEvent(), fault.oversized(), fault.tokensPerEvent(),
                            fault.splitUtf8(), fault.noDone(), fault.roleOnlyFirst());
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
                fault = fault.withResetAfter(plan.resetAfterEvents());
            }
            if (stall && fault.stallMs() == 0) {
                fault = fault.withStall(1, plan.stallMs());
            }
            if (malformed && fault.malformedEvent() == 0) {
                fault = fault.withMalformedEvent(2);
            }
            if (oversized) {
                fault = fault.withOversized();
            }
            if (split) {
                fault = fault.withSplitUtf8();
            }
            if (noDone) {
                fault = fault.withNoDone();
            }
            return fault;
        }
    }
}
