package io.tokenpulse.producer;

/**
 * Which requests one load generator of several sends: shard {@code index} of {@code count} owns
 * the dataset indices {@code i} with {@code i % count == index} (see {@link LoadSettings}).
 */
record Shard(int index, int count) {

    Shard {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + " of " + count + " does not exist");
        }
    }

    boolean owns(long requestIndex) {
        return requestIndex % count == index;
    }

    /** How many of the indices {@code 0 .. total-1} this shard owns. */
    int sizeOf(int total) {
        return total / count + (index < total % count ? 1 : 0);
    }
}
