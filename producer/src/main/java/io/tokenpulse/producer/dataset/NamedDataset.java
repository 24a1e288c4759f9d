package io.tokenpulse.producer.dataset;

/**
 * A dataset that answers to one {@code --dataset-name} and draws any count from 0 up: the name, and
 * the refusal of a negative count that its subclasses' draws begin with.
 */
abstract class NamedDataset implements Dataset {

    private final String name;

    NamedDataset(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    /** Refuses a negative {@code --num-prompts}, before anything is drawn. */
    static void refuseNegative(int numRequests) {
        if (numRequests < 0) {
            throw new IllegalArgumentException("--num-prompts must be >= 0, got " + numRequests);
        }
    }
}
