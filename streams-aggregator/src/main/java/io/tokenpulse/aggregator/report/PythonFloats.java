package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.core.io.NumberOutput;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Python's text for floats, which vLLM's files and console use: {@code repr(x)} (json.dump, file
 * names, percentile words) and {@code format(x, ".2f")}. Java's own formatting differs in both
 * (exponent thresholds, and HALF_UP on the shortest decimal instead of HALF_EVEN on the exact binary
 * value), so this small translation is written by hand.
 */
final class PythonFloats {

    private PythonFloats() {
    }

    /** {@code repr(x)}: shortest round-trip digits; fixed notation for 1e-4 <= |x| < 1e16. */
    static String repr(double x) {
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
    static String twoDecimals(double x) {
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

    /** vLLM's percentile word: {@code str(int(p)) if int(p) == p else str(p)}. */
    static String percentileWord(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : repr(p);
    }
}
