package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Commands stay thin (docs/architecture.md): options in mixins, running in the runner, printing in
 * cli.report. A cli source past 300 lines is the sign that a concept moved in that has a home elsewhere.
 */
class CommandSourceSizeTest {

    private static final int MAX_LINES = 300;

    @Test
    void noCliSourceIsLongerThanAScreenOrTwo() throws IOException {
        Path main = Path.of("src/main/java/io/tokenpulse/cli");
        assertThat(main).isDirectory();
        List<String> tooLong;
        try (Stream<Path> sources = Files.walk(main)) {
            tooLong = sources.filter(p -> p.toString().endsWith(".java"))
                    .filter(CommandSourceSizeTest::tooLong)
                    .map(p -> main.relativize(p).toString())
                    .toList();
        }
        assertThat(tooLong).as("cli sources over %d lines", MAX_LINES).isEmpty();
    }

    private static boolean tooLong(Path source) {
        try (Stream<String> lines = Files.lines(source)) {
            return lines.count() > MAX_LINES;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
