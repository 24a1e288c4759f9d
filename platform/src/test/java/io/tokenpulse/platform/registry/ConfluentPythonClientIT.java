package io.tokenpulse.platform.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every call of confluent_kafka's own {@code SchemaRegistryClient} (Debian's python3-confluent-kafka)
 * against the registry, answers and error codes included. A real process, so an IT; the registry
 * keeps its state in memory here because the broker adds nothing to what is checked.
 */
class ConfluentPythonClientIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void confluentsPythonClientGetsConfluentAnswersFromEveryCall(@TempDir Path workDir) throws Exception {
        DebianPython.requireClients();
        Path script = workDir.resolve("confluent_client_check.py");
        try (InputStream in = getClass().getResourceAsStream("confluent_client_check.py")) {
            Files.copy(in, script);
        }

        DebianPython.Run run;
        try (LocalSchemaRegistry registry =
                LocalSchemaRegistry.start(new InMemorySchemaStore(), new InetSocketAddress("127.0.0.1", 0))) {
            run = DebianPython.run(script, List.of(registry.url().toString()), workDir, Duration.ofSeconds(60));
        }

        assertThat(run.exitCode()).as("stderr:%n%s", run.stderr()).isZero();
        JsonNode out = JSON.readTree(run.stdout());
        assertThat(out.get("id_v1").asInt()).isEqualTo(1);
        assertThat(out.get("id_v1_other_subject").asInt()).isEqualTo(1);
        assertThat(out.get("id_v2").asInt()).isEqualTo(2);
        assertThat(out.get("lookup").toString()).isEqualTo("[\"py-value\",1,1]");
        assertThat(out.get("latest").toString()).isEqualTo("[2,2]");
        assertThat(out.get("version_1_id").asInt()).isEqualTo(1);
        assertThat(out.get("versions").toString()).isEqualTo("[1,2]");
        assertThat(out.get("subjects").toString()).isEqualTo("[\"py-other-value\",\"py-value\"]");
        assertThat(out.get("schema_2_fields").toString()).isEqualTo("[\"id\",\"n\"]");
        assertThat(out.get("compatible_v2").asBoolean()).isTrue();
        assertThat(out.get("compatible_incompatible").asBoolean()).isFalse();
        assertThat(out.get("register_incompatible_error").asInt()).isEqualTo(409);
        assertThat(out.get("unknown_subject_error").asInt()).isEqualTo(40401);
        assertThat(out.get("unknown_version_error").asInt()).isEqualTo(40402);
        assertThat(out.get("unknown_id_error").asInt()).isEqualTo(40403);
        assertThat(out.get("set_global").toString()).isEqualTo("{\"compatibility\":\"FULL\"}");
        assertThat(out.get("global").asText()).isEqualTo("FULL");
        assertThat(out.get("set_subject").toString()).isEqualTo("{\"compatibility\":\"NONE\"}");
        assertThat(out.get("subject").asText()).isEqualTo("NONE");
        assertThat(out.get("bad_level_error").asInt()).isEqualTo(42203);
        assertThat(out.get("deleted").toString()).isEqualTo("[1]");
        assertThat(out.get("subjects_after_delete").toString()).isEqualTo("[\"py-value\"]");
    }
}
