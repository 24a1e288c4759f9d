package io.tokenpulse.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlatformIT {

    @TempDir
    Path dataDir;

    @Test
    void schemaIdsSurviveARestartOnTheSameDataDir() {
        Schema schema =
                SchemaBuilder.record("Probe").fields().requiredString("x").endRecord();
        int id;
        try (Platform platform = Platform.start(new Platform.Settings(dataDir, 0, 0))) {
            assertThat(platform.bootstrapServers()).startsWith("127.0.0.1:");
            assertThat(platform.registryUrl().getHost()).isEqualTo("127.0.0.1");
            id = new SchemaRegistryClient(
                            SchemaRegistrySettings.of(platform.registryUrl().toString()))
                    .register("probe-value", schema);
        }
        try (Platform again = Platform.start(new Platform.Settings(dataDir, 0, 0))) {
            SchemaRegistryClient client = new SchemaRegistryClient(
                    SchemaRegistrySettings.of(again.registryUrl().toString()));
            assertThat(client.schemaById(id)).isEqualTo(schema);
        }
    }

    @Test
    void aRegistryPortInUseIsAClearError() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            assertThatThrownBy(() -> Platform.start(new Platform.Settings(dataDir, 0, taken.getLocalPort())))
                    .hasMessage("port " + taken.getLocalPort()
                            + " on 127.0.0.1 is in use; pass another --registry-port or omit it to pick a free one");
        }
    }
}
