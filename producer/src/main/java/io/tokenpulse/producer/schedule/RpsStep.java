package io.tokenpulse.producer.schedule;

import java.util.ArrayList;
import java.util.List;

/**
 * A ramp-up reaching a whole number of requests per second: vLLM's {@code rps_change_events}
 * ({@code vllm/benchmarks/serve.py}, {@code benchmark}): the start rate at the start, then each whole
 * rate, with every whole number between skipped ones, when the first request due at it is sent.
 *
 * @param rps      the whole rate reached
 * @param offsetNs when, ns after the schedule start
 */
public record RpsStep(long rps, long offsetNs) {

    /**
     * The steps of a ramp-up over the precomputed offsets (request {@code i} at progress
     * {@code i / (n - 1)}, as {@link ArrivalSchedule#precompute} draws it); empty without a ramp-up.
     */
    public static List<RpsStep> of(ArrivalSettings settings, long[] offsetsNs) {
        if (settings.rampUp() == null || offsetsNs.length == 0) {
            return List.of();
        }
        List<RpsStep> steps = new ArrayList<>();
        // vLLM announces the start rate as given (an int flag there) before the first request
        long last = (long) settings.rampUp().startRps();
        steps.add(new RpsStep(last, 0));
        for (int i = 0; i < offsetsNs.length; i++) {
            long whole = (long) settings.rateAt((double) i / Math.max(offsetsNs.length - 1, 1));
            for (long rps = last + 1; rps <= whole; rps++) {
                steps.add(new RpsStep(rps, offsetsNs[i]));
            }
            last = Math.max(last, whole);
        }
        return List.copyOf(steps);
    }
}
