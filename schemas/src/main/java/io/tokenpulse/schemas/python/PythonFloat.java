package io.tokenpulse.schemas.python;

import com.fasterxml.jackson.core.io.NumberOutput;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Python's text for floats, which vLLM's console lines, result files and printed Namespace use:
 * {@code repr(x)} (also {@code str(x)}), {@code format(x, ".2f")}, and the whole-number-as-int form
 * of its percentile words. Java's own formatting differs in all of them (exponent thresholds,
 * {@code Infinity}, and HALF_UP on the shortest decimal instead of HALF_EVEN on the exact binary
 * value), so this small translation is written by hand, once: the load generator, the aggregator's
 * reports and the CLI all print through it (this module is the one they share). Pure; thread-safe.
 */
public final class PythonFloat {

    private PythonFloat() {}

    /** {@code repr(x)}: shortest round-trip digits; fixed notation for 1e-4 <= |x| < 1e16. */
    public static String repr(double x) {
        if (Double.isNaN(x)) {
            return "nan";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "inf" : "-inf";
        }
        if (x == 0) {
            return 1 / x < 0 ? "-0.0" : "0.0";
        }
        // Jackson's Schubfach writer gives the shortest digits that round-trip, as Python does.
        BigDecimal shortest = new BigDecimal(NumberOutput.toString(x, true)).stripTrailingZeros();
        String digits = shortest.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - shortest.scale();
        String sign = x < 0 ? "-" : "";
        if (exponent >= -4 && exponent < 16) {
            String plain = shortest.abs().toPlainString();
            return sign + (plain.contains(".") ? plain : plain + ".0");
        }
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
    }

    /** {@code format(x, ".2f")}: the exact binary value rounded half-even to two decimals. */
    public static String twoDecimals(double x) {
        if (Double.isNaN(x)) {
            return "nan";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "inf" : "-inf";
        }
        String text = new BigDecimal(x).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
        boolean negative = x < 0 || (x == 0 && 1 / x < 0);
        return negative && !text.startsWith("-") ? "-" + text : text;
    }

    /**
     * {@code str(int(x)) if int(x) == x else str(x)}: vLLM's percentile words ({@code P99},
     * {@code P99.9}) and its int-typed ramp-up rates.
     */
    public static String intOrRepr(double x) {
        return x == Math.rint(x) && !Double.isInfinite(x) ? Long.toString((long) x) : repr(x);
    }
}
