package io.tokenpulse.runner.sweep;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values a swept flag takes, from its text: a comma list whose items are values or ranges.
 * {@code A..B} counts from A to B by 1, {@code A..B+S} by S, {@code A..BxF} multiplies by F; B is
 * included when reached. Numbers are decimal (exact: {@code 0.1..0.3+0.1} gives 0.1, 0.2, 0.3).
 * A malformed item fails with an {@link IllegalArgumentException} naming it.
 */
public final class SweepValues {

    /** More values than this in one range is a typo, not a sweep (each value is a whole benchmark). */
    static final int MAX_VALUES = 1000;

    private static final String NUMBER = "(-?\\d+(?:\\.\\d+)?)";
    /** An item starting with a number and {@code ..} is meant as a range (a path like {@code ../x} is not). */
    private static final Pattern RANGE_START = Pattern.compile("-?\\d+(?:\\.\\d+)?\\.\\..*");

    private static final Pattern RANGE = Pattern.compile(NUMBER + "\\.\\." + NUMBER + "(?:([+x])" + NUMBER + ")?");

    private SweepValues() {}

    /** Whether {@code text} asks for several values (a comma or a range). */
    public static boolean isList(String text) {
        return text.contains(",") || RANGE_START.matcher(text).matches();
    }

    /** The values of {@code text}, in the order given. */
    public static List<String> parse(String flag, String text) {
        List<String> values = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            String trimmed = item.strip();
            if (trimmed.isEmpty()) {
                throw new IllegalArgumentException(
                        flag + " '" + text + "' has an empty item; separate values by single commas");
            }
            if (RANGE_START.matcher(trimmed).matches()) {
                values.addAll(range(flag, trimmed));
            } else {
                values.add(trimmed);
            }
            if (values.size() > MAX_VALUES) {
                throw new IllegalArgumentException(
                        flag + " '" + text + "' gives more than " + MAX_VALUES + " values; use a larger step");
            }
        }
        return values;
    }

    private static List<String> range(String flag, String item) {
        Matcher m = RANGE.matcher(item);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    flag + " range '" + item
                            + "' is malformed; write START..END, START..END+STEP or START..ENDxFACTOR (e.g. 1..8+1, 4..2048x2)");
        }
        BigDecimal start = new BigDecimal(m.group(1));
        BigDecimal end = new BigDecimal(m.group(2));
        boolean multiply = "x".equals(m.group(3));
        BigDecimal step = m.group(4) == null ? BigDecimal.ONE : new BigDecimal(m.group(4));
        if (start.compareTo(end) > 0) {
            throw new IllegalArgumentException(
                    flag + " range '" + item + "' starts after its end; write the smaller value first");
        }
        if (multiply ? step.compareTo(BigDecimal.ONE) <= 0 || start.signum() <= 0 : step.signum() <= 0) {
            throw new IllegalArgumentException(flag + " range '" + item + "' never reaches its end; "
                    + (multiply ? "a factor must be > 1 and the start > 0" : "a step must be > 0"));
        }
        List<String> values = new ArrayList<>();
        for (BigDecimal v = start; v.compareTo(end) <= 0; v = multiply ? v.multiply(step) : v.add(step)) {
            values.add(v.stripTrailingZeros().toPlainString());
            if (values.size() > MAX_VALUES) {
                throw new IllegalArgumentException(
                        flag + " range '" + item + "' gives more than " + MAX_VALUES + " values; use a larger step");
            }
        }
        return values;
    }
}
