package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServedModelsTest {

    @Test
    void theFirstListedModelIsTakenWithVllmsLines() throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        try (SimulatorServer server =
                SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofMillis(1), Duration.ofMillis(1))
                        .withServedModelNames(List.of("Qwen/Qwen3-0.6B", "gpt2")))) {
            ServedModels.First first = ServedModels.first(
                    server.baseUri(), Map.of(), null, false, new PrintStream(console, true, StandardCharsets.UTF_8));

            assertThat(first).isEqualTo(new ServedModels.First("Qwen/Qwen3-0.6B", "Qwen/Qwen3-0.6B"));
        }
        assertThat(console.toString(StandardCharsets.UTF_8))
                .isEqualTo("Model not specified, fetching first model from server...\n"
                        + "First model name: Qwen/Qwen3-0.6B, first model id: Qwen/Qwen3-0.6B\n");
    }

    @Test
    void aServerThatCannotBeAskedIsOneLineNamingModel() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        URI base = URI.create("http://127.0.0.1:" + port);
        assertThatThrownBy(() -> ServedModels.first(
                        base, Map.of(), null, false, new PrintStream(OutputStream.nullOutputStream())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("failed to fetch models from http://127.0.0.1:" + port + "/v1/models (")
                .hasMessageEndingWith("; pass --model, or check --base-url / --host / --port");
    }

    @Test
    void aSelfSignedServerNamesInsecure() throws Exception {
        try (SimulatorServer server =
                SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofMillis(1), Duration.ofMillis(1))
                        .withTls(true))) {
            assertThatThrownBy(() -> ServedModels.first(
                            server.baseUri(), Map.of(), null, false, new PrintStream(OutputStream.nullOutputStream())))
                    .hasMessageContaining("pass --insecure");
            assertThat(ServedModels.first(
                                    server.baseUri(),
                                    Map.of(),
                                    null,
                                    true,
                                    new PrintStream(OutputStream.nullOutputStream()))
                            .name())
                    .isEqualTo(SimulatorConfig.DEFAULT_MODEL);
        }
    }
}
