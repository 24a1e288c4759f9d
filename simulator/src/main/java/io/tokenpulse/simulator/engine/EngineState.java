package io.tokenpulse.simulator.engine;

/**
 * What an engine holds at one moment, as its {@code /metrics} shows it.
 *
 * @param running        requests in the running batch (prefilling or decoding)
 * @param waiting        requests queued for admission
 * @param kvCacheUsage   fraction 0..1 of the KV cache the running requests' tokens fill
 */
public record EngineState(int running, int waiting, double kvCacheUsage) {

    public EngineState {
        if (running < 0 || waiting < 0 || !(kvCacheUsage >= 0 && kvCacheUsage <= 1)) {
            throw new IllegalArgumentException(
                    "bug: running " + running + ", waiting " + waiting + ", KV use " + kvCacheUsage);
        }
    }
}
