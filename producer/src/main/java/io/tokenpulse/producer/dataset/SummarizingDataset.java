package io.tokenpulse.producer.dataset;

import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * A dataset whose every draw says, in one logged line ({@link Drawn#summary}), how many entries it
 * read, dropped (by which rule) and sampled. Subclasses only choose the requests.
 */
abstract class SummarizingDataset implements Dataset {

    private final String name;

    SummarizingDataset(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final List<SampledRequest> sample(int numRequests, long seed) {
        Drawn drawn = draw(numRequests, seed);
        LoggerFactory.getLogger(getClass()).info(drawn.summary());
        return drawn.requests();
    }

    /** The requests and their summary line, without logging it. */
    final Drawn draw(int numRequests, long seed) {
        if (numRequests < 0) {
            throw new IllegalArgumentException("--num-prompts must be >= 0, got " + numRequests);
        }
        return choose(numRequests, seed);
    }

    /** Chooses {@code numRequests} (at least 0) requests, reproducibly for a seed. */
    abstract Drawn choose(int numRequests, long seed);
}
