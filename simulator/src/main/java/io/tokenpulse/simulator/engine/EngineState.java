package io.tokenpulse.simulator.engine;

/**
 * What an engine holds at one moment, and its counters since it started, as its {@code /metrics} shows them.
 *
 * @param running            requests in the running batch (prefilling or decoding)
 * @param waiting            requests queued for admission
 * @param kvCacheUsage       fraction 0..1 of the KV cache the running requests hold
 * @param prefixCacheQueries prompt tokens looked up in the prefix cache (again after a preemption)
 * @param prefixCacheHits    of those, tokens found cached, whose prefill was skipped
 * @param preemptions        running requests preempted for want of KV cache
 */
public record EngineState(
        int running,
        int waiting,
        double kvCacheUsage,
        long prefixCacheQueries,
        long prefixCacheHits,
        long preemptions) {

    public EngineState {
        if (running < 0
                || waiting < 0
                || !(kvCacheUsage >= 0 && kvCacheUsage <= 1)
                || prefixCacheHits < 0
                || prefixCacheHits > prefixCacheQueries
                || preemptions < 0) {
            throw new IllegalArgumentException("bug: running " + running + ", waiting " + waiting + ", KV use "
                    + kvCacheUsage + ", prefix cache " + prefixCacheHits + "/" + prefixCacheQueries
                    + ", preemptions " + preemptions);
        }
    }
}
