package io.tokenpulse.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The deployment files of this module, checked by the tools that load them: Prometheus'
 * {@code promtool} (configs, rules, rule unit tests) and Debian's {@code docker-compose config}
 * (there is no Docker engine in CI). The compose file runs the image of the cli module's command
 * (its {@code image} profile) and must name the image that profile builds ({@code tokenpulse.image},
 * set in the parent pom). scripts/test installs both tools; a missing one fails here with the
 * package to install.
 */
class DeploymentFilesTest {
    /** The repository's root: the deploy module's directory, which the build runs tests in, is below it. */
    private static final Path ROOT =
            Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();

    private static final Path PROMETHEUS = ROOT.resolve("prometheus");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** The services that run the tokenpulse image; bench is the one-shot load generator. */
    private static final Set<String> TOKENPULSE_SERVICES = Set.of("aggregator", "simulator", "bench");

    /** Exit code and combined output of one tool run. */
    record Run(int code, String output) {}

    private static Run run(String tool, String debianPackage, List<String> args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(tool);
        command.addAll(args);
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true);
        builder.environment().remove("TOKENPULSE_IMAGE"); // the compose file's default image is under test
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new AssertionError(
                    tool + " is not installed: apt-get install " + debianPackage + " (scripts/test does)", e);
        }
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as(tool + " finished").isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static Run promtool(String... args) throws Exception {
        return run("promtool", "prometheus", List.of(args));
    }

    private static List<String> files(Path dir, String suffix) throws IOException {
        try (Stream<Path> paths = Files.list(dir)) {
            return paths.map(Path::toString)
                    .filter(name -> name.endsWith(suffix))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void bothPrometheusConfigsAndTheirRulesLoad() throws Exception {
        for (String config : List.of("prometheus.yml", "prometheus.compose.yml")) {
            Run check = promtool("check", "config", PROMETHEUS.resolve(config).toString());
            assertThat(check.code()).as(check.output()).isZero();
            // rule_files is a glob: a config that matched no rule file would load without alerts
            assertThat(check.output()).contains("SUCCESS: 1 rule files found");
        }
    }

    @Test
    void alertRulesPassTheirPromtoolUnitTests() throws Exception {
        List<String> args = new ArrayList<>(List.of("test", "rules"));
        args.addAll(files(PROMETHEUS.resolve("tests"), ".yml"));
        Run test = run("promtool", "prometheus", args);
        assertThat(test.code()).as(test.output()).isZero();
    }

    @Test
    void everyAlertIsTestedFiringAndQuiet() throws Exception {
        Set<String> alerts = new TreeSet<>();
        for (String rules : files(PROMETHEUS.resolve("rules"), ".rules.yml")) {
            for (JsonNode group : YAML.readTree(Path.of(rules).toFile()).path("groups")) {
                group.path("rules").forEach(rule -> {
                    if (rule.has("alert")) {
                        alerts.add(rule.get("alert").asText());
                    }
                });
            }
        }
        Set<String> firing = new TreeSet<>();
        Set<String> quiet = new TreeSet<>();
        for (String tests : files(PROMETHEUS.resolve("tests"), ".yml")) {
            for (JsonNode test : YAML.readTree(Path.of(tests).toFile()).path("tests")) {
                for (JsonNode check : test.path("alert_rule_test")) {
                    (check.path("exp_alerts").isEmpty() ? quiet : firing)
                            .add(check.path("alertname").asText());
                }
            }
        }
        assertThat(alerts).hasSizeGreaterThanOrEqualTo(6);
        assertThat(firing).as("alerts with a firing test").containsAll(alerts);
        assertThat(quiet).as("alerts with a test where they stay quiet").containsAll(alerts);
    }

    @Test
    void composeFileIsValidAndRunsTheImageTheProfileBuilds() throws Exception {
        Run config = run("docker-compose", "docker-compose", List.of("config"));
        assertThat(config.code()).as(config.output()).isZero();
        JsonNode services = YAML.readTree(config.output()).path("services");

        String image = System.getProperty("tokenpulse.image");
        assertThat(image).as("surefire passes the image profile's name").startsWith("tokenpulse:");
        for (String name : TOKENPULSE_SERVICES) {
            assertThat(services.path(name).path("image").asText())
                    .as(name + "'s image")
                    .isEqualTo(image);
        }
        for (Map.Entry<String, JsonNode> service : services.properties()) {
            String name = service.getKey();
            JsonNode spec = service.getValue();
            for (JsonNode port : spec.path("ports")) {
                // short syntax "127.0.0.1:9092:9092/tcp" (docker-compose 1.x) or long syntax (Compose 2)
                String hostIp = port.isTextual()
                        ? port.asText().split(":")[0]
                        : port.path("host_ip").asText();
                assertThat(hostIp)
                        .as(name + " publishes " + port + " on loopback only")
                        .isEqualTo("127.0.0.1");
            }
            if (!name.equals("bench")) {
                assertThat(spec.has("healthcheck"))
                        .as(name + " has a healthcheck")
                        .isTrue();
            }
            spec.path("depends_on")
                    .properties()
                    .forEach(dependency -> assertThat(
                                    dependency.getValue().path("condition").asText())
                            .as(name + " waits for " + dependency.getKey())
                            .isIn("service_healthy", "service_completed_successfully"));
        }
        assertThat(services.path("bench").path("depends_on").has("aggregator")).isTrue();
    }
}
