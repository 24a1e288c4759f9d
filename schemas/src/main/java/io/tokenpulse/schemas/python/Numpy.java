package io.tokenpulse.schemas.python;

/**
 * numpy's summary statistics over sorted samples, for the report, the live windows and the console
 * lines alike; written out because no Java library reproduces numpy's exact float steps ({@code np.percentile} linear method with its {@code _lerp}, {@code
 * np.median}, {@code np.std} with ddof 0). An empty set gives 0, as vLLM's {@code np.mean(x or 0)}.
 *
 * @see "docs/metrics.md, Statistics"
 */
public final class Numpy {

    private Numpy() {}

    /** {@code np.percentile(v, p)}, default linear method: position {@code (N-1)*p/100}. */
    public static double percentile(double[] sorted, double p) {
        int n = sorted.length;
        if (n == 0) {
            return 0;
        }
        double virtualIndex = (n - 1) * (p / 100.0);
        int below = (int) Math.floor(virtualIndex);
        if (below >= n - 1) {
            return sorted[n - 1];
        }
        double gamma = virtualIndex - below;
        double a = sorted[below];
        double b = sorted[below + 1];
        double diff = b - a;
        // numpy's _lerp interpolates from the nearer end, which keeps the result monotonic.
        return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
    }

    /** {@code np.median(v)}: the middle value, or the mean of the two middle values. */
    public static double median(double[] sorted) {
        int n = sorted.length;
        if (n == 0) {
            return 0;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** {@code np.mean(v)}. */
    public static double mean(double[] values) {
        if (values.length == 0) {
            return 0;
        }
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    /** {@code np.std(v)}: population standard deviation (ddof 0), two passes as numpy does. */
    public static double std(double[] values) {
        if (values.length == 0) {
            return 0;
        }
        double mean = mean(values);
        double squares = 0;
        for (double v : values) {
            double d = v - mean;
            squares += d * d;
        }
        return Math.sqrt(squares / values.length);
    }
}
