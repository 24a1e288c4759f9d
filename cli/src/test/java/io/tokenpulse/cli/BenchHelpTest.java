package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@code bench --help} in labelled groups, common ones first; {@code --help-all} describes every option. */
class BenchHelpTest {

    /** The help bench prints; picocli's own warnings (on System.err) fail the test. */
    private static String help(String... args) {
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(warnings, true, java.nio.charset.StandardCharsets.UTF_8));
        StringWriter out = new StringWriter();
        try {
            CommandLine top = TokenPulse.newCommandLine();
            top.setOut(new PrintWriter(out));
            List<String> all = new ArrayList<>(List.of("bench"));
            all.addAll(List.of(args));
            assertThat(top.execute(all.toArray(String[]::new))).isZero();
        } finally {
            System.setErr(err);
        }
        assertThat(warnings.toString(java.nio.charset.StandardCharsets.UTF_8))
                .as("picocli's warnings")
                .isEmpty();
        return out.toString();
    }

    private static void assertInOrder(String text, List<String> headings) {
        int at = -1;
        for (String heading : headings) {
            int next = text.indexOf("\n" + heading + ":\n");
            assertThat(next)
                    .as("heading %s after the one before it in:%n%s", heading, text)
                    .isGreaterThan(at);
            at = next;
        }
    }

    @Test
    void helpShowsTheCommonGroupsInOrderAndNamesTheRest() {
        String text = help("--help");

        assertInOrder(
                text,
                List.of(
                        "Target server",
                        "Dataset",
                        "Traffic",
                        "Sampling",
                        "Results, reports and charts",
                        "Built-in simulator",
                        "Help and messages"));
        assertThat(text).startsWith("Usage: tokenpulse bench [OPTIONS]");
        assertThat(text).doesNotContain("\nKafka:\n").doesNotContain("\nTimeouts:\n");
        assertThat(text).contains("More options (described by 'bench --help-all'):", "  Kafka: --bootstrap-servers");
        // every flag is at least named
        for (OptionSpec option : TokenPulse.newCommandLine()
                .getSubcommands()
                .get("bench")
                .getCommandSpec()
                .options()) {
            assertThat(text).as(option.longestName()).contains(option.longestName());
        }
    }

    @Test
    void helpAllDescribesEveryGroupInOrderAndEveryOption() {
        String text = help("--help-all");

        assertInOrder(
                text, BenchHelp.GROUPS.stream().map(BenchHelp.Group::heading).toList());
        assertThat(text).doesNotContain("More options").doesNotContain("Other options");
        CommandLine bench = TokenPulse.newCommandLine().getSubcommands().get("bench");
        for (OptionSpec option : bench.getCommandSpec().options()) {
            // in the option lists, after the synopsis: "  --name", "--name=...", "--name[=...]"
            assertThat(text.substring(text.indexOf("\nTarget server:\n")))
                    .as(option.longestName() + " in --help-all")
                    .containsPattern(java.util.regex.Pattern.quote(option.longestName()) + "([\\s=\\[,]|$)");
        }
    }
}
