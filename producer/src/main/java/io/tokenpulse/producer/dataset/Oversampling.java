package io.tokenpulse.producer.dataset;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * vLLM's {@code maybe_oversample_requests}: when fewer entries pass a file dataset's filters than
 * {@code --num-prompts}, repeats are drawn with replacement (seeded by {@code --seed}) until the
 * count is reached; each repeat gets the next index. {@code --no-oversample} sends only the entries.
 */
final class Oversampling {

    private Oversampling() {}

    /** The requests to send: {@code valid}, then repeats up to {@code numRequests} unless {@code noOversample}. */
    static List<SampledRequest> fill(List<SampledRequest> valid, int numRequests, long seed, boolean noOversample) {
        if (noOversample || valid.size() >= numRequests || valid.isEmpty()) {
            return valid;
        }
        List<SampledRequest> all = new ArrayList<>(valid);
        Random random = new Random(seed);
        while (all.size() < numRequests) {
            SampledRequest repeat = valid.get(random.nextInt(valid.size()));
            all.add(new SampledRequest(
                    repeat.prompt(),
                    repeat.promptLen(),
                    repeat.expectedOutputLen(),
                    all.size(),
                    repeat.arrivalOffsetNs(),
                    repeat.conversation()));
        }
        return all;
    }

    /** The end of a dataset's summary line: what happened when there were too few entries. */
    static String note(int valid, int numRequests, boolean noOversample) {
        if (valid >= numRequests) {
            return "";
        }
        if (noOversample) {
            return "; only " + valid + " of --num-prompts " + numRequests + " (--no-oversample): the run sends "
                    + valid;
        }
        return "; only " + valid + " of --num-prompts " + numRequests
                + ", oversampled requests to reach " + numRequests + " total samples (repeats drawn with --seed;"
                + " --no-oversample sends only the " + valid + ")";
    }
}
