package io.tokenpulse.simulator.engine;

/**
 * A continuous-batching engine as a {@link LatencyModel}: one engine loop per simulator runs steps
 * back to back on one thread; each step's batch and cost come from {@link BatchingEngine} and
 * {@link EngineProfile}, and at the end of a step every request in it gets its token. TTFT so grows
 * with queueing and prompt length, and the gap between tokens with the batch.
 *
 * <p>Steps follow each other at their planned times (the next starts when the previous was due to
 * end), so a late timer delays the sending of tokens but not the simulated schedule.
 *
 * <p>Threading: {@link #generate} may be called from any thread; the engine runs on its own.
 */
public final class BatchingModel implements LatencyModel {

    private final EngineProfile profile;
    private final EngineClock clock;
    private final BatchingEngine engine;
    /** Confined to the engine thread: a step is planned or running. */
    private boolean stepping;
    /** Written by the engine thread after each change of its queues, read by /metrics. */
    private volatile EngineState state = new EngineState(0, 0, 0, 0, 0, 0);

    public BatchingModel(EngineProfile profile) {
        this(profile, new ThreadEngineClock());
    }

    BatchingModel(EngineProfile profile, EngineClock clock) {
        this.profile = profile;
        this.clock = clock;
        this.engine = new BatchingEngine(profile);
    }

    public EngineProfile profile() {
        return profile;
    }

    @Override
    public void generate(Generation generation) {
        clock.schedule(() -> admit(generation), generation.receivedNs() + profile.frontendNs());
    }

    private void admit(Generation generation) {
        engine.add(generation);
        state = engine.state();
        if (!stepping) {
            stepping = true;
            // A task, not a direct call: requests that arrive at the same instant join the first step together.
            clock.schedule(() -> step(clock.nowNs()), clock.nowNs());
        }
    }

    private void step(long startNs) {
        BatchingEngine.Step step = engine.plan();
        state = engine.state();
        if (step == null) {
            stepping = false;
            return;
        }
        long endNs = startNs + step.durationNs();
        clock.schedule(
                () -> {
                    engine.complete(step, endNs);
                    state = engine.state();
                    step(endNs);
                },
                endNs);
    }

    @Override
    public EngineState state(int inFlight, long promptTokens) {
        return state;
    }

    @Override
    public void close() {
        clock.close();
    }
}
