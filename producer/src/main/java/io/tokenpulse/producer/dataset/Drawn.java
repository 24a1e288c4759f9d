package io.tokenpulse.producer.dataset;

import java.util.List;

/**
 * What a file dataset drew, with the one line that says how many entries it read, dropped (by
 * which rule) and sampled; {@link Dataset#sample} logs the line and returns the requests.
 */
record Drawn(List<SampledRequest> requests, String summary) {

    Drawn {
        requests = List.copyOf(requests);
    }
}
