package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command, verbatim, on a machine whose {@code HOME} is empty: it must run the
 * 200 requests and print the lines the README's "What a run looks like" shows, in the same order
 * with the same labels (numbers differ from run to run; a changed, added or missing line fails).
 */
class ReadmeFirstCommandIT {
    static final Path README = Tokenpulse.ROOT.resolve("README.md");

    @TempDir
    Path home;

    @TempDir
    Path logs;

    /** The first line of the README's first {@code bash} block. */
    static String firstCommand(String readme) {
        Matcher block = Pattern.compile("```bash\n(.*?)\n").matcher(readme);
        assertThat(block.find()).as("a ```bash block in README.md").isTrue();
        return block.group(1);
    }

    /** The lines of the README's sample run, from the {@code $ ./tokenpulse} line to the closing fence. */
    static List<String> sampleRun(String readme) {
        Matcher block = Pattern.compile("```\n\\$ (\\./tokenpulse [^\n]*)\n(.*?)\n```", Pattern.DOTALL)
                .matcher(readme);
        assertThat(block.find()).as("a sample run in README.md").isTrue();
        return List.of(block.group(2).split("\n"));
    }

    /**
     * What stays from run to run: run ids become {@code RUN_ID}, numbers {@code N}, the Namespace line keeps its keys. The
     * progress bar (redrawn in place) and the sample's chart line (its command adds --save-chart) go,
     * and so does the client-bottleneck warning, which depends on the machine's load, not the command;
     * the commands printed after the block lose the sample's own {@code --data-dir}.
     */
    static List<String> shape(List<String> lines) {
        return lines.stream()
                .filter(line -> !line.contains("%|")
                        && !line.startsWith("Chart saved to ")
                        && !line.startsWith("Warning: the client was the bottleneck"))
                .map(line -> line.startsWith("Namespace(")
                        ? "Namespace"
                                + Pattern.compile("([a-z_]+)=")
                                        .matcher(line)
                                        .results()
                                        .map(m -> m.group(1))
                                        .toList()
                        : line.replaceAll("\\d{8}-\\d{6}-[0-9a-f]{6}", "RUN_ID")
                                // the sample's command has a data dir of its own, which the printed commands repeat
                                .replaceAll(" --data-dir \\S+", "")
                                .replaceAll("\\d+(\\.\\d+)?", "N")
                                .stripTrailing())
                .toList();
    }

    @Test
    void theFirstCommandRunsAsPrintedAndPrintsTheBlockTheReadmeShows() throws IOException {
        String readme = Files.readString(README);
        String command = firstCommand(readme);
        assertThat(command).startsWith("./tokenpulse bench --simulate ");
        List<String> args =
                Arrays.asList(command.substring("./tokenpulse ".length()).split(" +"));

        Tokenpulse.Result run = new Tokenpulse(home, logs).run(Tokenpulse.ROOT, Duration.ofMinutes(5), args);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        run.assertQuietStderr();
        assertThat(run.stdoutLines()).anySatisfy(line -> assertThat(line).matches("Successful requests: +200 *"));
        assertThat(shape(run.stdoutLines())).as(run.toString()).isEqualTo(shape(sampleRun(readme)));
        // the default data directory, under the user's home
        assertThat(home.resolve(".tokenpulse/platform")).isDirectory();
    }
}
