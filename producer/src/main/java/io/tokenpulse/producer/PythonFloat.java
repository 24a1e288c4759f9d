package io.tokenpulse.producer;

import java.math.BigDecimal;

/**
 * Formats a double as Python's {@code str(float)} does ({@code 4.0}, {@code inf},
 * {@code 0.5}), so the lines printed before a run match vLLM's. Hand-written because Java's
 * {@code Double.toString} switches to exponent notation at other bounds ({@code 1.0E7} where
 * Python prints {@code 10000000.0}) and says {@code Infinity}.
 */
final class PythonFloat {

    private PythonFloat() {
    }

    static String repr(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        double magnitude = Math.abs(value);
        // Python writes plain digits for 1e-4 <= |x| < 1e16, exponent notation outside.
        if (value == 0 || (magnitude >= 1e-4 && magnitude < 1e16)) {
            String plain = new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        // Rates and minutes never get here in practice; the digits match, the exponent style not quite.
        return Double.toString(value).replace("E", "e");
    }
}
