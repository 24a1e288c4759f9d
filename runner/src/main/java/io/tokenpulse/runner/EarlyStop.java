package io.tokenpulse.runner;

import io.tokenpulse.producer.FirstTokenListener;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * What may stop a run's load before its end besides a signal (a sweep's saturation stop): it is told
 * every request's time to first token from the I/O thread, and completes {@link #stopped} with its
 * reason. The run stops the load as Ctrl-C does, and its outcome is {@link StopReason#SATURATED}.
 */
public interface EarlyStop extends FirstTokenListener, AutoCloseable {

    /** Completes, with why, when the load is to stop. */
    CompletionStage<String> stopped();

    /** Why it stopped the load; empty while it has not. */
    Optional<String> reason();

    /** The load is over: no later window may stop it. */
    @Override
    void close();
}
