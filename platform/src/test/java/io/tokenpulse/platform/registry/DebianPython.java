package io.tokenpulse.platform.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a script with Debian's /usr/bin/python3, whose python3-confluent-kafka and python3-avro the ITs use. */
final class DebianPython {
    static final String PYTHON = "/usr/bin/python3";

    record Run(int exitCode, String stdout, String stderr) {}

    private DebianPython() {}

    /** Fails with the apt-get line to run when the Python clients are missing. */
    static void requireClients() throws IOException, InterruptedException {
        Process check = new ProcessBuilder(PYTHON, "-c", "import confluent_kafka, avro, requests")
                .redirectErrorStream(true)
                .start();
        String output = new String(check.getInputStream().readAllBytes());
        assertThat(check.waitFor())
                .as(
                        "Debian's Python Kafka clients are missing (%s); run scripts/test, or "
                                + "apt-get install python3-confluent-kafka python3-avro python3-requests",
                        output.strip())
                .isZero();
    }

    /** Runs {@code script} with {@code args}; stdout and stderr go to files in {@code workDir}. */
    static Run run(Path script, List<String> args, Path workDir, Duration timeout)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(PYTHON, script.toString()));
        command.addAll(args);
        Path stdout = workDir.resolve(script.getFileName() + ".out");
        Path stderr = workDir.resolve(script.getFileName() + ".err");
        Process process = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(script.getFileName() + " did not finish in " + timeout.toSeconds()
                    + " s; stderr:\n" + Files.readString(stderr));
        }
        return new Run(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }
}
