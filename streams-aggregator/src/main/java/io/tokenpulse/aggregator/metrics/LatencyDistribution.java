package io.tokenpulse.aggregator.metrics;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.DDSketches;
import com.datadoghq.sketch.ddsketch.encoding.ByteArrayInput;
import com.datadoghq.sketch.ddsketch.encoding.GrowingByteArrayOutput;
import com.datadoghq.sketch.ddsketch.store.CollapsingLowestDenseStore;
import io.tokenpulse.schemas.python.Numpy;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The samples of one metric in nanoseconds: every sample exactly up to {@code exactLimit}, then a
 * DDSketch (relative error <= 0.1 %, bounded bins) plus exact count, mean and second moment, so
 * that a 24-hour run stays in bounded memory. Mergeable; mutable and not thread-safe.
 */
final class LatencyDistribution {

    static final double SKETCH_RELATIVE_ACCURACY = 0.001;
    // 32768 bins at 0.1 % cover 1 ns to far beyond a day; beyond that the lowest bins collapse.
    private static final int SKETCH_MAX_BINS = 32768;

    private final int exactLimit;
    private double[] exact = new double[16];
    private int size;
    /** {@code exact[0, sortedSize)} is in order: a live window's samples are sorted at each emission, then grow. */
    private int sortedSize;

    private DDSketch sketch;
    // Exact moments once the sketch is on (Welford, merged with Chan et al.).
    private long count;
    private double mean;
    private double m2;

    LatencyDistribution(int exactLimit) {
        if (exactLimit < 1) {
            throw new IllegalArgumentException("exactLimit must be >= 1, got " + exactLimit);
        }
        this.exactLimit = exactLimit;
    }

    boolean isExact() {
        return sketch == null;
    }

    long count() {
        return isExact() ? size : count;
    }

    void add(double valueNs) {
        if (isExact()) {
            if (size == exact.length) {
                // Grow to at most limit + 1: the sample past the limit triggers the switch to the sketch.
                exact = Arrays.copyOf(exact, (int) Math.min(2L * size, exactLimit + 1L));
            }
            exact[size++] = valueNs;
            if (size > exactLimit) {
                switchToSketch();
            }
        } else {
            addToSketch(valueNs);
        }
    }

    void merge(LatencyDistribution other) {
        if (other.isExact()) {
            for (int i = 0; i < other.size; i++) {
                add(other.exact[i]);
            }
            return;
        }
        if (isExact()) {
            switchToSketch();
        }
        sketch.mergeWith(other.sketch);
        long total = count + other.count;
        double delta = other.mean - mean;
        mean += delta * other.count / total;
        m2 += other.m2 + delta * delta * ((double) count * other.count / total);
        count = total;
    }

    /** Mean, median, std and the given percentiles, in ms; all 0 when empty. */
    LatencyStats stats(List<Double> percentiles) {
        double[] percentileMs = new double[percentiles.size()];
        if (isExact()) {
            double[] values = sortedExact();
            for (int i = 0; i < percentileMs.length; i++) {
                percentileMs[i] = ms(Numpy.percentile(values, percentiles.get(i)));
            }
            return LatencyStats.of(
                    size,
                    ms(Numpy.mean(values)),
                    ms(Numpy.median(values)),
                    ms(Numpy.std(values)),
                    percentiles,
                    percentileMs,
                    true);
        }
        for (int i = 0; i < percentileMs.length; i++) {
            percentileMs[i] = ms(sketch.getValueAtQuantile(percentiles.get(i) / 100));
        }
        return LatencyStats.of(
                count,
                ms(mean),
                ms(sketch.getValueAtQuantile(0.5)),
                ms(Math.sqrt(m2 / count)),
                percentiles,
                percentileMs,
                false);
    }

    private double[] sortedExact() {
        if (sortedSize < size) {
            // Sort what came since the last time and merge it in: a window emitted every commit interval
            // would otherwise sort all its samples each time (8 % of a catch-up's stream thread).
            Arrays.sort(exact, sortedSize, size);
            if (sortedSize > 0 && Double.compare(exact[sortedSize - 1], exact[sortedSize]) > 0) {
                exact = merged(exact, sortedSize, size);
            }
            sortedSize = size;
        }
        return Arrays.copyOf(exact, size);
    }

    /** {@code values[0, middle)} and {@code values[middle, end)}, each in order, merged into a new array as long as {@code values}. */
    private static double[] merged(double[] values, int middle, int end) {
        double[] out = new double[values.length];
        int left = 0;
        int right = middle;
        int next = 0;
        while (left < middle && right < end) {
            // Double.compare, as Arrays.sort orders: -0.0 before 0.0, NaN last
            out[next++] = Double.compare(values[left], values[right]) <= 0 ? values[left++] : values[right++];
        }
        System.arraycopy(values, left, out, next, middle - left);
        next += middle - left;
        System.arraycopy(values, right, out, next, end - right);
        return out;
    }

    private static double ms(double ns) {
        return ns / 1e6;
    }

    private void switchToSketch() {
        sketch = DDSketches.collapsingLowestDense(SKETCH_RELATIVE_ACCURACY, SKETCH_MAX_BINS);
        count = 0;
        mean = 0;
        m2 = 0;
        for (int i = 0; i < size; i++) {
            addToSketch(exact[i]);
        }
        exact = null;
        size = 0;
        sortedSize = 0;
    }

    private void addToSketch(double valueNs) {
        sketch.accept(valueNs);
        count++;
        double delta = valueNs - mean;
        mean += delta / count;
        m2 += delta * (valueNs - mean);
    }

    void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(exactLimit);
        out.writeBoolean(isExact());
        if (isExact()) {
            out.writeInt(size);
            // in one block, not one writeDouble per sample: a window's state is written at every request
            // that lands in it (same big-endian layout)
            ByteBuffer samples = ByteBuffer.allocate(size * Double.BYTES);
            samples.asDoubleBuffer().put(exact, 0, size);
            out.write(samples.array());
            return;
        }
        out.writeLong(count);
        out.writeDouble(mean);
        out.writeDouble(m2);
        GrowingByteArrayOutput encoded = GrowingByteArrayOutput.withDefaultInitialCapacity();
        sketch.encode(encoded, false);
        out.writeInt(encoded.numWrittenBytes());
        out.write(encoded.backingArray(), 0, encoded.numWrittenBytes());
    }

    static LatencyDistribution readFrom(DataInputStream in) throws IOException {
        LatencyDistribution d = new LatencyDistribution(in.readInt());
        if (in.readBoolean()) {
            int size = in.readInt();
            if (size < 0 || size > d.exactLimit) {
                throw new IOException("exact sample count " + size + " outside [0, " + d.exactLimit + "]");
            }
            d.exact = new double[Math.max(16, size)];
            byte[] samples = new byte[size * Double.BYTES];
            in.readFully(samples);
            ByteBuffer.wrap(samples).asDoubleBuffer().get(d.exact, 0, size);
            d.size = size;
            return d;
        }
        d.count = in.readLong();
        d.mean = in.readDouble();
        d.m2 = in.readDouble();
        byte[] encoded = new byte[in.readInt()];
        in.readFully(encoded);
        d.sketch = DDSketch.decode(ByteArrayInput.wrap(encoded), () -> new CollapsingLowestDenseStore(SKETCH_MAX_BINS));
        d.exact = null;
        return d;
    }

    static UncheckedIOException corrupt(IOException e) {
        return new UncheckedIOException("corrupt metrics accumulator bytes: " + e.getMessage(), e);
    }
}
