package io.tokenpulse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One page of headless Chromium driven through the DevTools protocol, for what {@code --dump-dom}
 * cannot do: a viewport narrower than a headless window's 500 px minimum (a phone's 390 px, through
 * {@code Emulation.setDeviceMetricsOverride}), real mouse moves and clicks, script errors and console
 * errors as they happen. The network is off as in {@link HeadlessChromium}.
 *
 * <p>Not thread-safe: one test drives one page. {@link #close()} ends the browser.
 */
public final class BrowserPage implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();

    private BrowserPage(Process process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    /** Starts Chromium on a blank page with its profile in {@code profile} (a fresh folder). */
    public static BrowserPage start(Path profile) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                "/usr/bin/chromium",
                "--user-data-dir=" + profile,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--proxy-server=127.0.0.1:9",
                "--host-resolver-rules=MAP * ~NOTFOUND",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0", // Chromium picks a free port and writes it to DevToolsActivePort
                "about:blank"));
        Process process = new ProcessBuilder(command)
                .redirectError(
                        profile.resolveSibling(profile.getFileName() + ".log").toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        try {
            Path portFile = profile.resolve("DevToolsActivePort");
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!Files.isRegularFile(portFile)
                    || Files.readAllLines(portFile).size() < 2) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new IllegalStateException("chromium did not open its DevTools port: "
                            + Files.readString(profile.resolveSibling(profile.getFileName() + ".log")));
                }
                Thread.sleep(50);
            }
            int port = Integer.parseInt(Files.readAllLines(portFile).get(0).strip());
            HttpClient http = HttpClient.newHttpClient();
            String pageUrl = null;
            while (pageUrl == null) {
                JsonNode targets = JSON.readTree(http.send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body());
                for (JsonNode target : targets) {
                    if (target.path("type").asText().equals("page")) {
                        pageUrl = target.get("webSocketDebuggerUrl").asText();
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("chromium has no page target: " + targets);
                }
            }
            BrowserPage[] page = new BrowserPage[1];
            WebSocket socket = http.newWebSocketBuilder()
                    .buildAsync(URI.create(pageUrl), new Listener(page))
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            page[0] = new BrowserPage(process, socket);
            page[0].send("Page.enable", JSON.createObjectNode());
            page[0].send("Runtime.enable", JSON.createObjectNode());
            page[0].send("Log.enable", JSON.createObjectNode());
            return page[0];
        } catch (IOException | InterruptedException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("cannot reach chromium's DevTools: " + e, e);
        }
    }

    /** Collects replies to commands, and the events: page loads and errors. */
    private static final class Listener implements WebSocket.Listener {
        private final BrowserPage[] page;
        private final StringBuilder partial = new StringBuilder();

        Listener(BrowserPage[] page) {
            this.page = page;
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                while (page[0] == null) {
                    Thread.onSpinWait(); // the first reply can come before the constructor returned
                }
                page[0].received(text);
            }
            socket.request(1);
            return null;
        }
    }

    private void received(String text) {
        JsonNode message;
        try {
            message = JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("DevTools sent no JSON: " + text, e);
        }
        if (message.has("id")) {
            CompletableFuture<JsonNode> reply = replies.remove(message.get("id").asInt());
            if (reply != null) {
                reply.complete(message);
            }
            return;
        }
        String method = message.path("method").asText();
        JsonNode params = message.path("params");
        switch (method) {
            case "Runtime.exceptionThrown" ->
                errors.add("exception: "
                        + params.path("exceptionDetails")
                                .path("exception")
                                .path("description")
                                .asText(params.path("exceptionDetails")
                                        .path("text")
                                        .asText()));
            case "Runtime.consoleAPICalled" -> {
                if (params.path("type").asText().equals("error")) {
                    errors.add("console.error: " + params.path("args"));
                }
            }
            case "Log.entryAdded" -> {
                if (params.path("entry").path("level").asText().equals("error")) {
                    errors.add("log: " + params.path("entry").path("text").asText());
                }
            }
            default -> events.add(message);
        }
    }

    /** Sends a command and waits for its result. */
    public JsonNode send(String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        replies.put(id, reply);
        ObjectNode message =
                JSON.createObjectNode().put("id", id).put("method", method).set("params", params);
        try {
            socket.sendText(message.toString(), true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            JsonNode answer = reply.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (answer.has("error")) {
                throw new IllegalStateException(method + " failed: " + answer.get("error"));
            }
            return answer.path("result");
        } catch (Exception e) {
            throw new IllegalStateException(method + ": " + e, e);
        }
    }

    /**
     * Opens {@code page} in a viewport {@code width} px wide (a phone's when under 600 px: touch off,
     * but the mobile layout rules on) and waits for its load event, after which the page's scripts ran.
     */
    public void open(Path page, int width, int height) throws InterruptedException {
        send(
                "Emulation.setDeviceMetricsOverride",
                JSON.createObjectNode()
                        .put("width", width)
                        .put("height", height)
                        .put("deviceScaleFactor", 1)
                        .put("mobile", width < 600));
        events.clear();
        send("Page.navigate", JSON.createObjectNode().put("url", page.toUri().toString()));
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (events.stream().noneMatch(e -> e.path("method").asText().equals("Page.loadEventFired"))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(page + " did not load within " + TIMEOUT.toSeconds() + " s");
            }
            Thread.sleep(20);
        }
    }

    /** The value of a JavaScript expression, as JSON (a promise is awaited). */
    public JsonNode eval(String expression) {
        JsonNode result = send(
                "Runtime.evaluate",
                JSON.createObjectNode()
                        .put("expression", expression)
                        .put("returnByValue", true)
                        .put("awaitPromise", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("script failed: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /** Moves the mouse to a point of the viewport, as a user's mouse would. */
    public void mouseMove(double x, double y) {
        mouse("mouseMoved", x, y);
    }

    /** Clicks the left button at a point of the viewport. */
    public void click(double x, double y) {
        mouse("mouseMoved", x, y);
        mouse("mousePressed", x, y);
        mouse("mouseReleased", x, y);
    }

    private void mouse(String type, double x, double y) {
        ObjectNode params =
                JSON.createObjectNode().put("type", type).put("x", x).put("y", y);
        if (!type.equals("mouseMoved")) {
            params.put("button", "left").put("clickCount", 1);
        }
        send("Input.dispatchMouseEvent", params);
    }

    /** A PNG of the whole page (up to {@code maxHeight} px), at the viewport's width. */
    public byte[] screenshot(int maxHeight) {
        JsonNode size = send("Page.getLayoutMetrics", JSON.createObjectNode()).path("cssContentSize");
        ObjectNode clip = JSON.createObjectNode()
                .put("x", 0)
                .put("y", 0)
                .put("width", eval("window.innerWidth").asDouble())
                .put("height", Math.min(maxHeight, size.path("height").asDouble()))
                .put("scale", 1);
        JsonNode shot = send(
                "Page.captureScreenshot",
                JSON.createObjectNode()
                        .put("format", "png")
                        .put("captureBeyondViewport", true)
                        .set("clip", clip));
        return Base64.getDecoder().decode(shot.get("data").asText());
    }

    /** Uncaught exceptions, {@code console.error} calls and error log entries since the browser started. */
    public List<String> errors() {
        return List.copyOf(errors);
    }

    @Override
    public void close() {
        socket.abort();
        // Chromium's helpers (zygote, renderer, utility) outlive the browser process for a moment and
        // still write into the profile, which then cannot be deleted; end them and wait for them too.
        List<ProcessHandle> helpers = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            for (ProcessHandle helper : helpers) {
                helper.destroy();
                helper.onExit().get(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            helpers.forEach(ProcessHandle::destroyForcibly);
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            helpers.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
