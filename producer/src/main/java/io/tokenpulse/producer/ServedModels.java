package io.tokenpulse.producer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.producer.http.Tls;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * Current vLLM's answer to a missing {@code --model}: the first model the server lists at
 * {@code GET <base url>/v1/models}, its {@code id} as the name sent in requests and its {@code root}
 * as the model id (tokenizer, result file), with vLLM's two lines. Blocking, once before the run.
 */
public final class ServedModels {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * The server's first model.
     *
     * @param name the {@code id} the server answers to (sent as the payload's model)
     * @param modelId its {@code root} (the model path or id; the {@code id} when there is no root)
     */
    public record First(String name, String modelId) {}

    private ServedModels() {}

    /**
     * Asks the server for its models, printing vLLM's lines.
     *
     * @param headers {@code --header} values, sent as vLLM sends them
     * @param apiKey sent as a bearer token when not blank (a server started with an API key asks for it)
     * @param insecure {@code --insecure}
     * @throws IllegalArgumentException a one-line message naming the URL and {@code --model} when the
     *     server cannot be asked, answers badly or lists no model
     */
    public static First first(
            URI baseUrl, Map<String, String> headers, String apiKey, boolean insecure, PrintStream out)
            throws InterruptedException {
        out.println("Model not specified, fetching first model from server...");
        String base = baseUrl.toString().endsWith("/")
                ? baseUrl.toString().substring(0, baseUrl.toString().length() - 1)
                : baseUrl.toString();
        URI url = URI.create(base + "/v1/models");
        HttpRequest.Builder request =
                HttpRequest.newBuilder(url).timeout(TIMEOUT).GET();
        headers.forEach(request::header);
        if (apiKey != null && !apiKey.isBlank()) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(TIMEOUT)
                .sslContext(Tls.jdkContext(insecure))
                .build();
        String hint = "; pass --model, or check --base-url / --host / --port";
        HttpResponse<byte[]> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            if (Tls.isCertificateFailure(e)) {
                throw new IllegalArgumentException(Tls.untrustedMessage(url.toString(), e));
            }
            throw new IllegalArgumentException("failed to fetch models from " + url + " ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")"
                    + hint);
        }
        if (response.statusCode() != 200) {
            throw new IllegalArgumentException(
                    "failed to fetch models from " + url + " (HTTP " + response.statusCode() + ")" + hint);
        }
        JsonNode first;
        try {
            first = new ObjectMapper().readTree(response.body()).path("data").path(0);
        } catch (IOException e) {
            throw new IllegalArgumentException("the model list at " + url + " is not JSON" + hint);
        }
        String name = first.path("id").asText("");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no models found on the server at " + url + hint);
        }
        String root = first.path("root").asText("");
        First model = new First(name, root.isEmpty() ? name : root);
        out.println("First model name: " + model.name() + ", first model id: " + model.modelId());
        return model;
    }
}
