package io.tokenpulse.simulator;

import java.time.Duration;
import java.util.Objects;

/**
 * How to run the simulator.
 *
 * @param host             address to bind; 127.0.0.1 unless the user asks otherwise
 * @param port             TCP port, 0 for a free one
 * @param modelName        name listed by /v1/models and echoed in every chunk
 * @param latencyModel     decides when tokens are sent
 * @param defaultMaxTokens tokens generated when a request gives neither max_tokens nor max_completion_tokens
 * @param ioThreads        Netty event loops serving connections
 * @param sendListener     optional log of each event's send time ({@link SendListener#NONE} to skip)
 */
public record SimulatorConfig(String host, int port, String modelName, LatencyModel latencyModel,
                              int defaultMaxTokens, int ioThreads, SendListener sendListener) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final String DEFAULT_MODEL = "tokenpulse-sim";

    public SimulatorConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(latencyModel, "latencyModel");
        Objects.requireNonNull(sendListener, "sendListener");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        if (defaultMaxTokens < 1) {
            throw new IllegalArgumentException("default max tokens must be >= 1, got " + defaultMaxTokens);
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("io threads must be >= 1, got " + ioThreads);
        }
    }

    /** A deterministic server on a free port of 127.0.0.1: fixed TTFT, fixed gap between tokens. */
    public static SimulatorConfig deterministic(Duration ttft, Duration gap) {
        return new SimulatorConfig(DEFAULT_HOST, 0, DEFAULT_MODEL, DeterministicModel.of(ttft, gap), 16,
                Runtime.getRuntime().availableProcessors(), SendListener.NONE);
    }

    public SimulatorConfig withPort(int newPort) {
        return new SimulatorConfig(host, newPort, modelName, latencyModel, defaultMaxTokens, ioThreads, sendListener);
    }

    public SimulatorConfig withIoThreads(int threads) {
        return new SimulatorConfig(host, port, modelName, latencyModel, defaultMaxTokens, threads, sendListener);
    }

    public SimulatorConfig withSendListener(SendListener listener) {
        return new SimulatorConfig(host, port, modelName, latencyModel, defaultMaxTokens, ioThreads, listener);
    }
}
