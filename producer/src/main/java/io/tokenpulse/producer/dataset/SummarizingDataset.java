package io.tokenpulse.producer.dataset;

import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * A dataset whose every draw says, in one logged line ({@link Drawn#summary}), how many entries it
 * read, dropped (by which rule) and sampled. Subclasses only choose the requests.
 */
abstract class SummarizingDataset extends NamedDataset {

    SummarizingDataset(String name) {
        super(name);
    }

    @Override
    public final List<SampledRequest> sample(int numRequests, long seed) {
        Drawn drawn = draw(numRequests, seed);
        LoggerFactory.getLogger(getClass()).info(drawn.summary());
        return drawn.requests();
    }

    /** The requests and their summary line, without logging it. */
    final Drawn draw(int numRequests, long seed) {
        refuseNegative(numRequests);
        return choose(numRequests, seed);
    }

    /** Chooses {@code numRequests} (at least 0) requests, reproducibly for a seed. */
    abstract Drawn choose(int numRequests, long seed);
}
