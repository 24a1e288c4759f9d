package io.tokenpulse.aggregator.topology;

/** Store keys that end in a zero-padded number, so that a store's byte order is the numbers' order. */
final class StoreKeys {
    private StoreKeys() {}

    /**
     * {@code prefix + "/" + value} with the value zero-padded to {@code digits}: the same key as
     * {@code String.format("%s/%0<digits>d", prefix, value)}, built by hand because String.format was
     * 9 % of the stream thread's CPU samples in a catch-up (JFR, bench/aggregator/run).
     */
    static String padded(String prefix, long value, int digits) {
        if (value < 0) {
            return String.format("%s/%0" + digits + "d", prefix, value);
        }
        String number = Long.toString(value);
        StringBuilder key = new StringBuilder(prefix.length() + 1 + Math.max(digits, number.length()))
                .append(prefix)
                .append('/');
        for (int pad = number.length(); pad < digits; pad++) {
            key.append('0');
        }
        return key.append(number).toString();
    }
}
