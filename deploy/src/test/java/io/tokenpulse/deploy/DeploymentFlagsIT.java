package io.tokenpulse.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every {@code tokenpulse} command line of the deployment files — the Kubernetes base and both compose
 * files, docker-compose.cluster.yml laid over docker-compose.yml — uses only flags the shipped jar's
 * command lists in its {@code --help}; and the three-broker compose file's brokers, quorum and bootstrap
 * lists agree.
 */
class DeploymentFlagsIT {

    private static final Path ROOT = KubernetesManifestsTest.ROOT;
    private static final Path JAR = Path.of(System.getProperty("tokenpulse.jar", "../cli/target/tokenpulse.jar"));
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private final Map<String, String> helps = new HashMap<>();

    @Test
    void everyFlagOfTheKubernetesBaseAndSecuredOverlayIsOneTheJarTakes() throws Exception {
        List<JsonNode> containers = KubernetesManifestsTest.tokenpulseContainers(KubernetesManifestsTest.rendered());
        assertThat(containers)
                .as("three in the base, three in the secured overlay")
                .hasSize(6);
        for (JsonNode container : containers) {
            assertFlagsKnown(
                    "kubernetes " + container.path("name").asText(),
                    KubernetesManifestsTest.texts(container.path("args")));
        }
    }

    @Test
    void theThreeBrokerComposeFileAgreesWithItselfAndTheJar() throws Exception {
        JsonNode services = composeConfig("-f", "docker-compose.yml", "-f", "docker-compose.cluster.yml");
        Set<String> brokers = new TreeSet<>();
        Set<String> voters = new TreeSet<>();
        Set<String> ids = new TreeSet<>();
        for (Map.Entry<String, JsonNode> service : services.properties()) {
            JsonNode env = service.getValue().path("environment");
            if (env.has("KAFKA_NODE_ID")) {
                brokers.add(service.getKey() + ":19092");
                ids.add(env.path("KAFKA_NODE_ID").asText() + "@" + service.getKey() + ":9093");
                voters.add(env.path("KAFKA_CONTROLLER_QUORUM_VOTERS").asText());
                assertThat(env.path("KAFKA_ADVERTISED_LISTENERS").asText())
                        .startsWith("INTERNAL://" + service.getKey() + ":19092,");
                assertThat(env.path("KAFKA_MIN_INSYNC_REPLICAS").asText()).isEqualTo("2");
                assertThat(env.path("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR")
                                .asText())
                        .isEqualTo("3");
            }
        }
        assertThat(brokers).hasSize(3);
        assertThat(voters).as("every node has the same quorum").hasSize(1);
        assertThat(new TreeSet<>(List.of(voters.iterator().next().split(",")))).isEqualTo(ids);
        for (String name : List.of("aggregator", "bench")) {
            List<String> command =
                    KubernetesManifestsTest.texts(services.path(name).path("command"));
            assertThat(new TreeSet<>(List.of(KubernetesManifestsTest.flag(command, "--bootstrap-servers")
                            .orElseThrow()
                            .split(","))))
                    .as(name + " is given every broker")
                    .isEqualTo(brokers);
            assertFlagsKnown("compose cluster " + name, command);
        }
        assertThat(services.path("schema-registry")
                        .path("environment")
                        .path("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS")
                        .asText())
                .contains(brokers.stream().map(b -> "PLAINTEXT://" + b).toList());
    }

    @Test
    void everyFlagOfTheOneBrokerComposeFileIsOneTheJarTakes() throws Exception {
        JsonNode services = composeConfig();
        for (String name : List.of("aggregator", "simulator", "bench")) {
            assertFlagsKnown(
                    "compose " + name,
                    KubernetesManifestsTest.texts(services.path(name).path("command")));
        }
    }

    private void assertFlagsKnown(String where, List<String> args) throws Exception {
        String help = help(args.get(0));
        for (String arg : args) {
            if (arg.startsWith("--")) {
                assertThat(help)
                        .as(where + ": " + args.get(0) + " takes " + arg)
                        .containsPattern("(^|[\\s,])" + java.util.regex.Pattern.quote(arg) + "([\\s=,\\[]|$)");
            }
        }
    }

    /** {@code java -jar tokenpulse.jar COMMAND --help}, once per command. */
    private String help(String command) throws Exception {
        if (!helps.containsKey(command)) {
            assertThat(JAR).as("the shaded jar (mvn package -pl cli -am)").exists();
            Process process = new ProcessBuilder("java", "-jar", JAR.toString(), command, "--help")
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(process.exitValue()).as(output).isZero();
            helps.put(command, output);
        }
        return helps.get(command);
    }

    private static JsonNode composeConfig(String... files) throws Exception {
        List<String> command = new ArrayList<>(List.of("docker-compose"));
        command.addAll(List.of(files));
        command.add("config");
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true);
        builder.environment().remove("TOKENPULSE_IMAGE");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(Files.exists(ROOT.resolve("docker-compose.cluster.yml"))).isTrue();
        return YAML.readTree(output).path("services");
    }
}
