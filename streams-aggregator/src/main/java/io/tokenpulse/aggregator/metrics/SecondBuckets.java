package io.tokenpulse.aggregator.metrics;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * Counts in 1-second buckets {@code [origin + k s, origin + (k+1) s)} for any integer {@code k}, held
 * in one array spanning the buckets touched so far (about 86 400 slots for a day). Mergeable by
 * addition; mutable and not thread-safe.
 */
final class SecondBuckets {

    static final long NS_PER_SECOND = 1_000_000_000L;

    private long firstBucket;
    private long[] counts = new long[0];

    static long bucketOf(long timeNs, long originNs) {
        return Math.floorDiv(timeNs - originNs, NS_PER_SECOND);
    }

    void add(long bucket, long delta) {
        if (counts.length == 0) {
            firstBucket = bucket;
            counts = new long[1];
        } else if (bucket < firstBucket) {
            long[] grown = new long[Math.toIntExact(counts.length + (firstBucket - bucket))];
            System.arraycopy(counts, 0, grown, Math.toIntExact(firstBucket - bucket), counts.length);
            counts = grown;
            firstBucket = bucket;
        } else if (bucket >= firstBucket + counts.length) {
            counts = Arrays.copyOf(counts, Math.toIntExact(bucket - firstBucket + 1));
        }
        counts[Math.toIntExact(bucket - firstBucket)] += delta;
    }

    void merge(SecondBuckets other) {
        for (int i = 0; i < other.counts.length; i++) {
            if (other.counts[i] != 0) {
                add(other.firstBucket + i, other.counts[i]);
            }
        }
    }

    /** The largest bucket; 0 when empty. */
    long max() {
        long max = 0;
        for (long c : counts) {
            max = Math.max(max, c);
        }
        return max;
    }

    /** Reading the buckets as +1/-1 changes: the largest running total; 0 when empty. */
    long maxRunningTotal() {
        long max = 0;
        long total = 0;
        for (long c : counts) {
            total += c;
            max = Math.max(max, total);
        }
        return max;
    }

    void writeTo(DataOutputStream out) throws IOException {
        out.writeLong(firstBucket);
        out.writeInt(counts.length);
        for (long c : counts) {
            out.writeLong(c);
        }
    }

    static SecondBuckets readFrom(DataInputStream in) throws IOException {
        SecondBuckets b = new SecondBuckets();
        b.firstBucket = in.readLong();
        int length = in.readInt();
        if (length < 0) {
            throw new IOException("negative bucket count " + length);
        }
        b.counts = new long[length];
        for (int i = 0; i < length; i++) {
            b.counts[i] = in.readLong();
        }
        return b;
    }
}
