package io.tokenpulse.aggregator.metrics;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * A run's or a live window's reasoning figures (extension), gathered from its successful requests
 * beside the {@link MetricsAccumulator}: the time to first output token of every request whose answer
 * started, and the output tokens split into thinking and answer. Kept apart from the accumulator so
 * that its serialized state stays as it is; serializable ({@link #writeTo}, {@link #readFrom}) for the
 * topology's window store. Mutable, not thread-safe.
 *
 * @see "docs/metrics.md, TokenPulse's own metrics: TTFO"
 */
public final class ReasoningAccumulator {

    private static final int FORMAT_VERSION = 1;

    private final LatencyDistribution ttfo;
    private long requests;
    private long reasoningTokens;
    private long outputTokens;

    /** @param exactLimit TTFO samples kept exactly before the sketch takes over */
    public ReasoningAccumulator(int exactLimit) {
        this(new LatencyDistribution(exactLimit));
    }

    /** An accumulator with {@link MetricsAccumulator#DEFAULT_EXACT_LIMIT}, as a run's scoring uses. */
    public ReasoningAccumulator() {
        this(MetricsAccumulator.DEFAULT_EXACT_LIMIT);
    }

    private ReasoningAccumulator(LatencyDistribution ttfo) {
        this.ttfo = ttfo;
    }

    /** Adds one finished request; a failure adds nothing, as in the run's other figures. */
    public void add(RequestValues request, RequestReasoning reasoning) {
        if (!request.success()) {
            return;
        }
        outputTokens += request.outputTokens();
        reasoning.ttfoNs().ifPresent(ttfo::add);
        if (reasoning.thought()) {
            requests++;
            reasoningTokens += reasoning.reasoningTokens().orElse(0);
        }
    }

    /** The figures; empty when no successful request thought, so other runs and windows show none. */
    public Optional<ReasoningResult> result(List<Double> percentiles) {
        if (requests == 0) {
            return Optional.empty();
        }
        return Optional.of(new ReasoningResult(
                requests, reasoningTokens, Math.max(0, outputTokens - reasoningTokens), ttfo.stats(percentiles)));
    }

    /** The run's figures at the selected percentiles; see {@link #result(List)}. */
    public Optional<ReasoningResult> result(MetricPercentiles percentiles) {
        return result(percentiles.percentiles());
    }

    /** Writes the state for {@link #readFrom}. */
    public void writeTo(DataOutputStream out) throws IOException {
        out.writeByte(FORMAT_VERSION);
        out.writeLong(requests);
        out.writeLong(reasoningTokens);
        out.writeLong(outputTokens);
        ttfo.writeTo(out);
    }

    /**
     * Reads what {@link #writeTo} wrote, leaving {@code in} after it; corrupt bytes fail with an
     * {@link java.io.UncheckedIOException}.
     */
    public static ReasoningAccumulator readFrom(DataInputStream in) {
        try {
            int version = in.readUnsignedByte();
            if (version != FORMAT_VERSION) {
                throw new IOException("reasoning format version " + version + ", expected " + FORMAT_VERSION);
            }
            long requests = in.readLong();
            long reasoningTokens = in.readLong();
            long outputTokens = in.readLong();
            ReasoningAccumulator acc = new ReasoningAccumulator(LatencyDistribution.readFrom(in));
            acc.requests = requests;
            acc.reasoningTokens = reasoningTokens;
            acc.outputTokens = outputTokens;
            return acc;
        } catch (IOException e) {
            throw LatencyDistribution.corrupt(e);
        }
    }
}
