package io.tokenpulse.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code chromium}, headless, with the network off: every host name fails to resolve and
 * every request goes to a proxy on a closed port. Tests that use it are skipped, saying so, when
 * chromium is not installed ({@code scripts/test} installs it).
 */
final class HeadlessChromium {
    private static final List<String> NO_NETWORK = List.of(
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            "--disable-background-networking",
            "--proxy-server=127.0.0.1:9",
            "--host-resolver-rules=MAP * ~NOTFOUND");

    private final Path profile;

    HeadlessChromium(Path profile) {
        this.profile = profile;
    }

    static void assumeInstalled() {
        assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/chromium")),
                "chromium is not installed (apt-get install chromium; scripts/test does): the browser test is skipped");
    }

    /** The page's DOM after its scripts ran. */
    String dumpDom(Path page) throws IOException, InterruptedException {
        return run(page, "--dump-dom");
    }

    /** Saves a picture of the page. */
    void screenshot(Path page, Path png, int width, int height) throws IOException, InterruptedException {
        run(page, "--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height);
    }

    private String run(Path page, String... what) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("/usr/bin/chromium", "--user-data-dir=" + profile));
        command.addAll(NO_NETWORK);
        command.addAll(List.of(what));
        command.add(page.toUri().toString());
        Path err = Files.createTempFile(profile.getParent(), "chromium", ".log");
        Process process = new ProcessBuilder(command)
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("chromium did not finish within 90 s: " + Files.readString(err));
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    "chromium exited with " + process.exitValue() + ": " + Files.readString(err));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
