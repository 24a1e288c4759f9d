package io.tokenpulse.producer;

import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.schedule.ArrivalSchedule;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.producer.schedule.RpsStep;
import java.util.Arrays;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.stream.IntStream;

/**
 * The requests one shard sends, in schedule order, with their offsets. Every shard draws the
 * whole run's schedule from the same seed and keeps the requests it owns, so together the shards
 * send exactly the schedule one load generator would.
 *
 * <ul>
 *   <li>Fixed count: the precomputed schedule of {@code numPrompts} requests; request {@code i}
 *       sends sample {@code i}. Samples are dropped as they are handed out.</li>
 *   <li>Duration mode: offsets drawn lazily until the duration ends; request {@code i} sends
 *       sample {@code i % samples}, so a 24-hour run keeps only the sampled pool.</li>
 * </ul>
 * Not thread-safe: the scheduler alone iterates it.
 */
final class RequestPlan extends LookaheadPlan {

    private final Shard shard;
    private final PrimitiveIterator.OfLong offsetsNs;
    private final SampledRequest[] samples;
    private final boolean cycle;
    private final int plannedSize;
    private final boolean ownTimes;
    /** The offsets of the requests this shard sends, in order; null in duration mode. */
    private final long[] ownedOffsetsNs;

    private final List<RpsStep> rpsSteps;
    /**
     * The request index of each sample's first request when samples are sessions (a session of n
     * turns takes n consecutive indices, in sample order, the same on every shard); null otherwise.
     */
    private final int[] firstRequestIndex;

    private int nextIndex;

    private RequestPlan(
            Shard shard,
            PrimitiveIterator.OfLong offsetsNs,
            SampledRequest[] samples,
            boolean cycle,
            int plannedSize,
            long[] ownedOffsetsNs,
            int[] firstRequestIndex,
            List<RpsStep> rpsSteps) {
        this.shard = shard;
        this.rpsSteps = rpsSteps;
        this.firstRequestIndex = firstRequestIndex;
        this.ownedOffsetsNs = ownedOffsetsNs;
        this.offsetsNs = offsetsNs;
        this.samples = samples;
        this.cycle = cycle;
        this.plannedSize = plannedSize;
        this.ownTimes = !cycle && ownTimes(Arrays.asList(samples));
    }

    /**
     * {@code samples.size()} requests on the precomputed schedule, or at the samples' own times when
     * they bring them (trace replay).
     */
    static RequestPlan fixed(ArrivalSettings arrivals, Shard shard, List<SampledRequest> samples) {
        long[] offsetsNs = ownTimes(samples)
                ? ownOffsetsNs(samples)
                : ArrivalSchedule.precompute(arrivals, samples.size()).offsetsNs();
        return new RequestPlan(
                shard,
                Arrays.stream(offsetsNs).iterator(),
                samples.toArray(SampledRequest[]::new),
                false,
                IntStream.range(0, samples.size())
                        .filter(shard::owns)
                        .map(i -> samples.get(i).turns())
                        .sum(),
                IntStream.range(0, offsetsNs.length)
                        .filter(shard::owns)
                        .mapToLong(i -> offsetsNs[i])
                        .toArray(),
                firstRequestIndices(samples),
                ownTimes(samples) ? List.of() : RpsStep.of(arrivals, offsetsNs));
    }

    /** Each session's first request index, or null when no sample is a session. */
    private static int[] firstRequestIndices(List<SampledRequest> samples) {
        if (samples.stream().allMatch(s -> s.conversation() == null)) {
            return null;
        }
        int[] first = new int[samples.size()];
        long next = 0;
        for (int i = 0; i < first.length; i++) {
            if (next + samples.get(i).turns() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("more than 2^31 turns in one run; split it into several runs");
            }
            first[i] = (int) next;
            next += samples.get(i).turns();
        }
        return first;
    }

    /** Requests until {@code durationNs}, cycling through {@code samples}. */
    static RequestPlan forDuration(
            ArrivalSettings arrivals, long durationNs, Shard shard, List<SampledRequest> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("--num-prompts must be >= 1 to have prompts to cycle through");
        }
        if (ownTimes(samples)) {
            throw new IllegalArgumentException("--duration-minutes cannot replay requests that bring their own times");
        }
        if (samples.get(0).conversation() != null) {
            throw new IllegalArgumentException("--duration-minutes cannot run multi-turn sessions; give --num-prompts"
                    + " (the number of sessions) instead");
        }
        return new RequestPlan(
                shard,
                ArrivalSchedule.forDuration(arrivals, durationNs),
                samples.toArray(SampledRequest[]::new),
                true,
                -1,
                null,
                null,
                List.of());
    }

    /** Whether the samples bring their own send times; all or none do. */
    static boolean ownTimes(List<SampledRequest> samples) {
        return !samples.isEmpty() && samples.get(0).arrivalOffsetNs().isPresent();
    }

    private static long[] ownOffsetsNs(List<SampledRequest> samples) {
        long[] offsetsNs = new long[samples.size()];
        for (int i = 0; i < offsetsNs.length; i++) {
            offsetsNs[i] = samples.get(i)
                    .arrivalOffsetNs()
                    .orElseThrow(() -> new IllegalStateException("bug: only some samples have their own send times"));
            if (i > 0 && offsetsNs[i] < offsetsNs[i - 1]) {
                throw new IllegalStateException("bug: samples' own send times are not in order");
            }
        }
        return offsetsNs;
    }

    @Override
    public boolean sessions() {
        return firstRequestIndex != null;
    }

    /** Whether requests go at their samples' own times (trace replay) rather than on the arrival schedule. */
    @Override
    public boolean ownTimes() {
        return ownTimes;
    }

    /**
     * The offsets (ns after the schedule start) of the requests this shard will send, in order.
     *
     * @throws IllegalStateException in duration mode, where they are drawn as the run goes
     */
    @Override
    public long[] plannedOffsetsNs() {
        if (ownedOffsetsNs == null) {
            throw new IllegalStateException("bug: a duration run's offsets are not planned ahead");
        }
        return ownedOffsetsNs.clone();
    }

    @Override
    public List<RpsStep> rpsSteps() {
        return rpsSteps;
    }

    /** Requests this shard will send (every turn of its sessions), or -1 when the duration decides. */
    @Override
    public int plannedSize() {
        return plannedSize;
    }

    @Override
    PlannedRequest findNext() {
        while (offsetsNs.hasNext()) {
            long offsetNs = offsetsNs.nextLong();
            int index = nextIndex++;
            if (index < 0) {
                throw new IllegalStateException("more than 2^31 requests in one run; split it into several runs");
            }
            if (shard.owns(index)) {
                int slot = cycle ? index % samples.length : index;
                PlannedRequest planned = new PlannedRequest(
                        firstRequestIndex == null ? index : firstRequestIndex[index], offsetNs, samples[slot]);
                if (!cycle) {
                    samples[slot] = null; // sent once: let the prompt go
                }
                return planned;
            }
        }
        return null;
    }
}
