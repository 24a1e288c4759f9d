package io.tokenpulse.cli.vllm;

import java.util.Locale;
import java.util.regex.Pattern;

/** Decides which option and property values are secrets, so they never reach logs or result files. */
final class Redaction {
    static final String REDACTED = "<redacted>";
    private static final Pattern SECRET_KEY = Pattern.compile(
            ".*(password|passwd|secret|jaas|credential|api[._-]?key|bearer|basic[._-]?auth).*|(.*[._-])?token");

    private Redaction() {}

    static boolean isSecretKey(String key) {
        return SECRET_KEY.matcher(key.toLowerCase(Locale.ROOT)).matches();
    }
}
