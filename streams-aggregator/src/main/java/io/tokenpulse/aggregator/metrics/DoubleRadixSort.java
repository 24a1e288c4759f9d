package io.tokenpulse.aggregator.metrics;

import java.util.Arrays;

/**
 * Sorts samples into exactly the order {@link Arrays#sort(double[], int, int)} gives, by a radix sort
 * on their bits. A run's summary sorts its inter-token latencies (millions of them) for the whole run
 * and again for its steady state, on the stream thread of a C1-only JVM: there
 * {@code DualPivotQuicksort} took 92 % of the summary's time (about 0.5 s per 2.4 million samples). A
 * least-significant-byte radix sort touches each sample once per byte that differs between samples
 * (latencies in whole nanoseconds share their low mantissa bytes, which are skipped).
 */
final class DoubleRadixSort {
    /** Below this many samples the extra arrays and 2 048 counters cost more than they save. */
    static final int MIN_SIZE = 4096;

    private static final int DIGITS = Long.BYTES;
    private static final int RADIX = 256;

    private DoubleRadixSort() {}

    /** Sorts {@code values[from, to)} as {@code Arrays.sort} does: -0.0 before 0.0, NaN last. */
    static void sort(double[] values, int from, int to) {
        int n = to - from;
        if (n < MIN_SIZE) {
            Arrays.sort(values, from, to);
            return;
        }
        long[] keys = new long[n];
        int[][] counts = new int[DIGITS][RADIX];
        for (int i = 0; i < n; i++) {
            double v = values[from + i];
            if (Double.isNaN(v)) {
                // NaNs of any bit pattern sort last as one value in Arrays.sort; bits would split them
                Arrays.sort(values, from, to);
                return;
            }
            long key = key(Double.doubleToRawLongBits(v));
            keys[i] = key;
            for (int digit = 0; digit < DIGITS; digit++) {
                counts[digit][digitOf(key, digit)]++;
            }
        }
        long[] buffer = new long[n];
        for (int digit = 0; digit < DIGITS; digit++) {
            int[] offsets = counts[digit];
            if (offsets[digitOf(keys[0], digit)] == n) {
                continue; // every sample has this byte in common
            }
            int start = 0;
            for (int b = 0; b < RADIX; b++) {
                int count = offsets[b];
                offsets[b] = start;
                start += count;
            }
            for (int i = 0; i < n; i++) {
                long key = keys[i];
                buffer[offsets[digitOf(key, digit)]++] = key;
            }
            long[] sorted = buffer;
            buffer = keys;
            keys = sorted;
        }
        for (int i = 0; i < n; i++) {
            values[from + i] = Double.longBitsToDouble(bits(keys[i]));
        }
    }

    /** The double's bits as an unsigned key in numeric order: negatives flipped whole, positives' sign bit set. */
    private static long key(long bits) {
        return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    }

    private static long bits(long key) {
        return key < 0 ? key ^ Long.MIN_VALUE : ~key;
    }

    private static int digitOf(long key, int digit) {
        return (int) (key >>> (Byte.SIZE * digit)) & (RADIX - 1);
    }
}
