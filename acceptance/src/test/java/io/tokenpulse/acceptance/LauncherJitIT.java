package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JIT each command gets from {@code ./tokenpulse} (docs/decisions/0006): client commands C1 alone,
 * with event loops compiled after 4 000 turns; the servers ({@code simulate}, {@code platform}) C2.
 * Read from the JVM's own final flags ({@code -XX:+PrintFlagsFinal} through JAVA_TOOL_OPTIONS).
 */
class LauncherJitIT {

    private static final Pattern FLAG = Pattern.compile("^\\s*\\S+\\s+(\\w+)\\s+=\\s+(\\S+)", Pattern.MULTILINE);

    @TempDir
    Path home;

    @Test
    void clientCommandsRunC1WithEventLoopsCompiledEarlyAndServersRunC2() throws Exception {
        assertThat(flag(List.of("--version"), "TieredStopAtLevel")).isEqualTo("1");
        assertThat(flag(List.of("--version"), "Tier3BackEdgeThreshold")).isEqualTo("4000");
        assertThat(flag(List.of("aggregate", "--help"), "Tier3BackEdgeThreshold"))
                .isEqualTo("4000");
        assertThat(flag(List.of("simulate", "--help"), "TieredStopAtLevel")).isEqualTo("4");
        assertThat(flag(List.of("platform", "--help"), "Tier3BackEdgeThreshold"))
                .isEqualTo("60000");
    }

    private String flag(List<String> args, String name) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Tokenpulse.LAUNCHER.toString())
                .directory(Tokenpulse.ROOT.toFile())
                .redirectErrorStream(true);
        builder.command().addAll(args);
        builder.environment().put("HOME", home.toString());
        builder.environment().put("JAVA_TOOL_OPTIONS", "-XX:+PrintFlagsFinal");
        builder.environment().remove("TOKENPULSE_JAVA_OPTS");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        Matcher m = FLAG.matcher(output);
        while (m.find()) {
            if (m.group(1).equals(name)) {
                return m.group(2);
            }
        }
        throw new AssertionError("no " + name + " in the flags of ./tokenpulse " + args);
    }
}
