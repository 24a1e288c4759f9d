package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Commands" table is this suite's table of contents: each command it shows is run,
 * as shown, by the test named here. A row added to the table fails {@link #everyCommandOfTheTableIsRun}
 * until a test runs it and is listed.
 */
class CommandsTableIT {
    static final Map<String, String> RUN_BY = new LinkedHashMap<>();

    static {
        RUN_BY.put(
                "./tokenpulse bench ...", "ReadmeFirstCommandIT, BenchAgainstSimulatorIT, PlatformFlagsIT, BadInputIT");
        RUN_BY.put("./tokenpulse aggregate", "PlatformFlagsIT");
        RUN_BY.put("./tokenpulse replay --run-id ID", "PlatformFlagsIT");
        RUN_BY.put(
                "./tokenpulse rescore --run-id ID [--as vllm,guidellm,aiperf,sglang,inference-perf] [--format markdown\\|csv\\|json]",
                "RescoreIT");
        RUN_BY.put("./tokenpulse export --run-id ID --output DIR [--format parquet\\|csv]", "ExportIT");
        RUN_BY.put("./tokenpulse simulate [--port P] [--profile default\\|deterministic] [--speedup N]", "SimulateIT");
        RUN_BY.put("./tokenpulse sweep --num-prompts 1,2,4..2048x2 ...", "SweepIT");
        RUN_BY.put("./tokenpulse chart --run-id ID --output FILE.png", "PlatformFlagsIT");
        RUN_BY.put(
                "./tokenpulse compare RESULT... [--label L] [--baseline N] [--format md\\|csv\\|html]",
                "CompareReportIT");
        RUN_BY.put("./tokenpulse report RESULT.json --output FILE.html", "CompareReportIT");
        RUN_BY.put("./tokenpulse report --sweep DIR --output FILE.html", "CompareReportIT");
        RUN_BY.put(
                "./tokenpulse platform [--secure] [--data-dir DIR] [--kafka-port P] [--registry-port Q]",
                "PlatformFlagsIT");
        RUN_BY.put("./tokenpulse platform --brokers 3 [--data-dir DIR]", "ClusterBrokerLossIT");
        RUN_BY.put("./tokenpulse --version", "CommandsTableIT");
        RUN_BY.put("./tokenpulse --help", "CommandsTableIT");
    }

    @TempDir
    Path home;

    @TempDir
    Path logs;

    /** The code spans of the first cell of each row of the table under {@code ## Commands}. */
    static List<String> tableCommands(String readme) {
        int section = readme.indexOf("\n## Commands\n");
        assertThat(section).as("a ## Commands section in README.md").isNotNegative();
        return readme.substring(section)
                .lines()
                .skip(2)
                .takeWhile(line -> line.startsWith("|"))
                .skip(2)
                .map(row -> row.substring(1, row.indexOf(" | ")))
                .flatMap(cell ->
                        Pattern.compile("`([^`]+)`").matcher(cell).results().map(m -> m.group(1)))
                .toList();
    }

    @Test
    void everyCommandOfTheTableIsRun() throws IOException {
        List<String> commands = tableCommands(Files.readString(ReadmeFirstCommandIT.README));

        assertThat(commands).containsExactlyInAnyOrderElementsOf(RUN_BY.keySet());
    }

    @Test
    void versionAndHelp() {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);

        Tokenpulse.Result version = tokenpulse.run(Duration.ofMinutes(1), "--version");
        assertThat(version.exitCode()).as(version.toString()).isZero();
        assertThat(version.stdoutLines())
                .as(version.toString())
                .singleElement()
                .asString()
                .matches("tokenpulse \\S+");
        assertThat(version.stderr()).isEmpty();

        Tokenpulse.Result help = tokenpulse.run(Duration.ofMinutes(1), "--help");
        assertThat(help.exitCode()).as(help.toString()).isZero();
        Matcher listed = Pattern.compile("(?m)^  (\\w+) ").matcher(help.stdout());
        assertThat(listed.results().map(m -> m.group(1)).toList())
                .contains("bench", "aggregate", "replay", "chart", "compare", "report", "platform", "simulate");
    }
}
