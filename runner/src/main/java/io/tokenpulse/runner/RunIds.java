package io.tokenpulse.runner;

import java.security.SecureRandom;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/** Run ids that sort by start time and do not collide between load generators: {@code 20261122-141503-9f3a1c}. */
public final class RunIds {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final SecureRandom RANDOM = new SecureRandom();

    private RunIds() {}

    public static String next() {
        byte[] suffix = new byte[3];
        RANDOM.nextBytes(suffix);
        return TIME.format(LocalDateTime.now()) + "-" + HexFormat.of().formatHex(suffix);
    }
}
