package io.tokenpulse.producer.dataset;

import java.util.List;

/**
 * A source of benchmark requests, named as vLLM's {@code --dataset-name} values. Obtain one from
 * {@link Datasets#create}.
 *
 * <p>Implementations are immutable after construction; {@link #sample} may be called from any thread.
 */
public interface Dataset {

    /** The {@code --dataset-name} this dataset answers to. */
    String name();

    /**
     * Draws {@code numRequests} requests. The same seed gives the same requests (on the same
     * tokenizer); vLLM's numpy streams are not reproduced, so the prompts differ from vLLM's for the
     * same seed while lengths follow the same distributions.
     *
     * @param numRequests {@code --num-prompts}, at least 0
     * @param seed {@code --seed}
     * @return requests with {@link SampledRequest#index()} 0, 1, ... in order
     */
    List<SampledRequest> sample(int numRequests, long seed);

    /**
     * Checks, before the run starts, that {@link #sample} can draw {@code numRequests}; most datasets
     * can draw any number.
     *
     * @throws IllegalArgumentException with a one-line message naming the flag to change
     */
    default void checkCount(int numRequests) {}
}
