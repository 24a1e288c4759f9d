package io.tokenpulse.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
public final class HeadlessChromium {
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

    public HeadlessChromium(Path profile) {
        this.profile = profile;
    }

    public static void assumeInstalled() {
        assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/chromium")),
                "chromium is not installed (apt-get install chromium; scripts/test does): the browser test is skipped");
    }

    /**
     * A page as Chromium loaded it.
     *
     * @param dom the DOM after the page's scripts ran
     * @param requests the URLs the page asked for (none load: the network is off), from Chromium's net
     *     log; Chromium's own requests (updates, accounts), which have no initiating origin, left out
     */
    public record Loaded(String dom, List<String> requests) {}

    public Loaded load(Path page) throws IOException, InterruptedException {
        Path netLog = profile.resolveSibling("net-log.json");
        String dom = run(page, "--dump-dom", "--log-net-log=" + netLog);
        List<String> requests = new java.util.ArrayList<>();
        for (JsonNode event : new ObjectMapper().readTree(netLog.toFile()).path("events")) {
            JsonNode params = event.path("params");
            if (params.has("url") && params.has("initiator")) {
                if (!params.get("initiator").asText().equals("not an origin")) {
                    requests.add(params.get("url").asText());
                }
            }
        }
        return new Loaded(dom, requests);
    }

    /** Saves a picture of the page. */
    public void screenshot(Path page, Path png, int width, int height) throws IOException, InterruptedException {
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
