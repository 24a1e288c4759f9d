package io.tokenpulse.runner;

import io.tokenpulse.schemas.PipelineRole;

/**
 * What a bench's runs share, as settings: the pipeline they publish to, the priority of its threads
 * ({@code --pipeline-nice}) and what the {@link BenchHost} serves. {@code bench} starts it for one run,
 * {@code sweep} once for all its points.
 *
 * @param nice the pipeline threads' nice value
 */
public record HostSetup(Pipeline.Settings pipeline, int nice, BenchHost.Settings host) {

    /** The priority, the pipeline and the host, started in that order and closed in the other. */
    public record Started(PipelinePriority priority, Pipeline pipeline, BenchHost host) implements AutoCloseable {
        @Override
        public void close() {
            Closing.all(host, pipeline, priority);
        }
    }

    /** Connects the pipeline (starting the embedded platform without --bootstrap-servers) and starts the host on it. */
    public Started start() throws InterruptedException {
        PipelinePriority priority = PipelinePriority.of(nice);
        Pipeline connected = null;
        try {
            connected = priority.start(() -> Pipeline.connect(pipeline, PipelineRole.BENCH));
            return new Started(priority, connected, BenchHost.start(connected, host, priority));
        } catch (RuntimeException | InterruptedException e) {
            Closing.all(connected, priority);
            throw e;
        }
    }
}
