package io.tokenpulse.producer.backend;

import io.tokenpulse.producer.http.Tls;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * vLLM's {@code --profile}: {@code POST <base url>/start_profile} before the run and
 * {@code /stop_profile} after it, which a vLLM server started with {@code VLLM_TORCH_PROFILER_DIR}
 * answers by starting and stopping its torch profiler. Prints vLLM's lines to the given stream; a
 * call that fails is reported in one line and the run goes on, as in vLLM.
 *
 * <p>Blocking (the JDK's HTTP client; two calls per run need nothing faster); thread-safe.
 */
public final class Profiler {

    /** Starting a torch profiler can take a while on a busy server. */
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final URI baseUrl;
    private final String apiKey;
    private final PrintStream out;
    private final HttpClient http;

    /**
     * @param baseUrl the server's base URL, without the endpoint path
     * @param apiKey sent as {@code Authorization: Bearer} when not blank; may be null
     * @param insecure {@code --insecure}: accept any https certificate
     */
    public Profiler(URI baseUrl, String apiKey, boolean insecure, PrintStream out) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.out = out;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(TIMEOUT)
                .sslContext(Tls.jdkContext(insecure))
                .build();
    }

    /** Asks the server to start profiling; true when it answered 200. */
    public boolean start() throws InterruptedException {
        out.println("Starting profiler...");
        boolean started = post("/start_profile");
        if (started) {
            out.println("Profiler started");
        }
        return started;
    }

    /** Asks the server to stop profiling; true when it answered 200. */
    public boolean stop() throws InterruptedException {
        out.println("Stopping profiler...");
        boolean stopped = post("/stop_profile");
        if (stopped) {
            out.println("Profiler stopped");
        }
        return stopped;
    }

    private boolean post(String path) throws InterruptedException {
        String base = baseUrl.toString().endsWith("/")
                ? baseUrl.toString().substring(0, baseUrl.toString().length() - 1)
                : baseUrl.toString();
        URI uri = URI.create(base + path);
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.noBody());
        if (apiKey != null && !apiKey.isBlank()) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        try {
            int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
            if (status != 200) {
                out.println("Profiler: " + uri + " answered HTTP " + status
                        + " (is the server started with VLLM_TORCH_PROFILER_DIR?)");
            }
            return status == 200;
        } catch (IOException e) {
            out.println("Profiler: POST " + uri + " failed: " + e.getMessage());
            return false;
        }
    }
}
