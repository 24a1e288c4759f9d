package io.tokenpulse.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tokenpulse.aggregator.topology.StreamsSettings;
import io.tokenpulse.platform.security.PipelineAcls;
import io.tokenpulse.platform.security.SaslUsers;
import io.tokenpulse.schemas.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.acl.AclBinding;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/kubernetes}, checked offline (no cluster, no image pulled): rendered with {@code kubectl
 * kustomize} (Debian's {@code kubernetes-client}), then the resources against each other — the Strimzi
 * cluster's size and replication, a {@code KafkaTopic} for each of TokenPulse's topics, the aggregator's
 * replicas within the partitions, the bench Job's index as {@code --shard-index}, every address a
 * command is given pointing at a Service and port that exist, every Service and PodMonitor selecting
 * pods with the named port, the alert rules' {@code PrometheusRule} equal to the rules file, each Grafana
 * dashboard a ConfigMap for Grafana's sidecar with the file's content. The
 * secured overlay ({@code deploy/kubernetes-secure}): its {@code KafkaUser}s' ACLs equal to the secured
 * platform's ({@link PipelineAcls}), every client authenticating as its user. The flags themselves are
 * checked against the shipped jar by {@link DeploymentFlagsIT}.
 */
class KubernetesManifestsTest {

    static final Path ROOT =
            Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    static final Path KUBERNETES = ROOT.resolve("deploy/kubernetes");
    static final Path KUBERNETES_SECURE = ROOT.resolve("deploy/kubernetes-secure");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static List<JsonNode> resources;
    private static List<JsonNode> secured;

    @BeforeAll
    static void render() throws Exception {
        resources = rendered(KUBERNETES);
        secured = rendered(KUBERNETES_SECURE);
    }

    /** The base and the secured overlay rendered by {@code kubectl kustomize}, one node per resource. */
    static List<JsonNode> rendered() throws Exception {
        List<JsonNode> both = new ArrayList<>(rendered(KUBERNETES));
        both.addAll(rendered(KUBERNETES_SECURE));
        return both;
    }

    /** {@code kustomization} rendered by {@code kubectl kustomize}, one node per resource. */
    private static List<JsonNode> rendered(Path kustomization) throws Exception {
        Process process;
        // stderr apart: newer kubectl warns there that commonLabels, bases and patchesJson6902 are deprecated
        Path errors = Files.createTempFile("kubectl", ".err");
        try {
            process = new ProcessBuilder("kubectl", "kustomize", kustomization.toString())
                    .redirectError(errors.toFile())
                    .start();
        } catch (IOException e) {
            throw new AssertionError("kubectl is not installed: apt-get install kubernetes-client", e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES))
                .as("kubectl kustomize finished")
                .isTrue();
        String warnings = Files.readString(errors);
        Files.delete(errors);
        assertThat(process.exitValue()).as(warnings).isZero();
        List<JsonNode> docs = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(output)) {
            YAML.readValues(parser, JsonNode.class).forEachRemaining(docs::add);
        }
        return docs;
    }

    @Test
    void everyFileIsInTheBaseAndEveryResourceIsLabelledAndNamed() throws Exception {
        JsonNode kustomization =
                YAML.readTree(KUBERNETES.resolve("kustomization.yaml").toFile());
        List<String> listed = new ArrayList<>();
        kustomization.path("resources").forEach(r -> listed.add(r.asText()));
        try (Stream<Path> files = Files.list(KUBERNETES)) {
            assertThat(files.map(p -> p.getFileName().toString())
                            .filter(name -> name.endsWith(".yaml") && !name.equals("kustomization.yaml")))
                    .as("every manifest is a resource of the base")
                    .containsExactlyInAnyOrderElementsOf(listed);
        }
        assertThat(resources).hasSizeGreaterThanOrEqualTo(15);
        for (JsonNode resource : resources) {
            String what = resource.path("kind").asText() + " " + name(resource);
            assertThat(resource.path("apiVersion").asText()).as(what).isNotEmpty();
            assertThat(name(resource)).as(what).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
            assertThat(resource.path("metadata")
                            .path("labels")
                            .path("app.kubernetes.io/part-of")
                            .asText())
                    .as(what + " is labelled part of tokenpulse")
                    .isEqualTo("tokenpulse");
        }
    }

    @Test
    void kafkaIsThreeKraftNodesWithTheReplicationTokenPulseExpects() {
        JsonNode kafka = only("Kafka");
        assertThat(kafka.path("apiVersion").asText()).isEqualTo("kafka.strimzi.io/v1beta2");
        assertThat(kafka.path("metadata")
                        .path("annotations")
                        .path("strimzi.io/kraft")
                        .asText())
                .isEqualTo("enabled");
        assertThat(kafka.path("metadata")
                        .path("annotations")
                        .path("strimzi.io/node-pools")
                        .asText())
                .isEqualTo("enabled");
        JsonNode pool = only("KafkaNodePool");
        assertThat(pool.path("metadata")
                        .path("labels")
                        .path("strimzi.io/cluster")
                        .asText())
                .isEqualTo(name(kafka));
        assertThat(pool.path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(texts(pool.path("spec").path("roles"))).containsExactlyInAnyOrder("broker", "controller");
        JsonNode config = kafka.path("spec").path("kafka").path("config");
        // as platform --brokers 3 (docs/cluster.md): one broker may go without losing or stopping anything
        assertThat(config.path("min.insync.replicas").asInt()).isEqualTo(2);
        assertThat(config.path("default.replication.factor").asInt()).isEqualTo(3);
        assertThat(config.path("offsets.topic.replication.factor").asInt()).isEqualTo(3);
        assertThat(config.path("transaction.state.log.replication.factor").asInt())
                .isEqualTo(3);
        assertThat(config.path("transaction.state.log.min.isr").asInt()).isEqualTo(2);
    }

    @Test
    void everyTokenPulseTopicIsAKafkaTopicWithThreeCopies() {
        TreeSet<String> expected = new TreeSet<>();
        for (var component : Topics.class.getRecordComponents()) {
            // the record's components are the topics, named as their suffix in camel case (deadLetter)
            expected.add(Topics.DEFAULT_PREFIX
                    + component.getName().replaceAll("([A-Z])", "-$1").toLowerCase());
        }
        expected.add(Topics.DEFAULT_PREFIX + "shard-barrier");
        TreeSet<String> declared = new TreeSet<>();
        for (JsonNode topic : all("KafkaTopic")) {
            declared.add(topic.path("spec").path("topicName").asText());
            assertThat(topic.path("metadata")
                            .path("labels")
                            .path("strimzi.io/cluster")
                            .asText())
                    .isEqualTo(name(only("Kafka")));
            assertThat(topic.path("spec").path("replicas").asInt())
                    .as(name(topic))
                    .isEqualTo(3);
        }
        assertThat(declared).isEqualTo(expected);
    }

    @Test
    void theAggregatorHasNoMoreReplicasThanChunksHasPartitionsAndKeepsItsStateOnAVolume() {
        JsonNode aggregator = workload("Deployment", "tokenpulse-aggregator");
        int partitions = all("KafkaTopic").stream()
                .filter(t -> t.path("spec").path("topicName").asText().equals("tokenpulse.chunks"))
                .findFirst()
                .orElseThrow()
                .path("spec")
                .path("partitions")
                .asInt();
        assertThat(aggregator.path("spec").path("replicas").asInt())
                .as("replicas beyond the partitions stay idle (docs/cluster.md)")
                .isBetween(1, partitions);
        JsonNode pod = aggregator.path("spec").path("template").path("spec");
        JsonNode container = pod.path("containers").get(0);
        List<String> args = texts(container.path("args"));
        String stateDir = flag(args, "--state-dir").orElseThrow();
        String volume = null;
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("mountPath").asText().equals(stateDir)) {
                volume = mount.path("name").asText();
            }
        }
        assertThat(volume).as("--state-dir is a mounted volume").isNotNull();
        String mounted = volume;
        assertThat(pod.path("volumes"))
                .anySatisfy(v -> assertThat(v.path("name").asText()).isEqualTo(mounted));
        assertThat(port(container, "metrics"))
                .isEqualTo(Integer.parseInt(flag(args, "--metrics-port").orElseThrow()));
        assertThat(flag(args, "--metrics-host")).contains("0.0.0.0");
    }

    @Test
    void theBenchJobIsIndexedWithItsIndexAsShardIndexAndAllShardsAtOnce() {
        JsonNode job = workload("Job", "tokenpulse-bench");
        JsonNode spec = job.path("spec");
        assertThat(spec.path("completionMode").asText()).isEqualTo("Indexed");
        JsonNode container =
                spec.path("template").path("spec").path("containers").get(0);
        List<String> args = texts(container.path("args"));
        assertThat(spec.path("completions").asInt())
                .as("completions are --shard-count")
                .isEqualTo(Integer.parseInt(flag(args, "--shard-count").orElseThrow()));
        assertThat(spec.path("parallelism").asInt())
                .as("every shard runs at once, or the start barrier times out")
                .isEqualTo(spec.path("completions").asInt());
        String index = flag(args, "--shard-index").orElseThrow();
        assertThat(index).matches("\\$\\([A-Z_]+\\)");
        String variable = index.substring(2, index.length() - 1);
        assertThat(container.path("env")).anySatisfy(env -> {
            assertThat(env.path("name").asText()).isEqualTo(variable);
            assertThat(env.path("valueFrom").path("fieldRef").path("fieldPath").asText())
                    .isEqualTo("metadata.annotations['batch.kubernetes.io/job-completion-index']");
        });
        assertThat(flag(args, "--run-id")).as("one run id for every shard").isPresent();
    }

    @Test
    void everyAddressACommandIsGivenIsAServiceAndPortThatExist() {
        JsonNode kafka = only("Kafka");
        int plainPort = 0;
        for (JsonNode listener : kafka.path("spec").path("kafka").path("listeners")) {
            if (listener.path("name").asText().equals("plain")) {
                plainPort = listener.path("port").asInt();
            }
        }
        // Strimzi's bootstrap Service is <cluster>-kafka-bootstrap
        String bootstrap = name(kafka) + "-kafka-bootstrap:" + plainPort;
        int commands = 0;
        for (JsonNode container : tokenpulseContainers()) {
            List<String> args = texts(container.path("args"));
            if (args.get(0).equals("simulate")) {
                continue;
            }
            commands++;
            assertThat(flag(args, "--bootstrap-servers")).contains(bootstrap);
            assertThat(servicePort(flag(args, "--schema-registry-url").orElseThrow()))
                    .isTrue();
            flag(args, "--base-url")
                    .ifPresent(url -> assertThat(servicePort(url)).as(url).isTrue());
        }
        assertThat(commands).isEqualTo(2);
        for (JsonNode registry : all("Deployment")) {
            for (JsonNode env : registry.path("spec")
                    .path("template")
                    .path("spec")
                    .path("containers")
                    .get(0)
                    .path("env")) {
                if (env.path("name").asText().equals("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS")) {
                    assertThat(env.path("value").asText()).isEqualTo("PLAINTEXT://" + bootstrap);
                }
            }
        }
    }

    @Test
    void servicesAndPodMonitorsSelectPodsWithTheirNamedPort() {
        List<JsonNode> selectors = new ArrayList<>();
        all("Service").forEach(selectors::add);
        all("PodMonitor").forEach(selectors::add);
        assertThat(all("PodMonitor")).hasSize(2);
        for (JsonNode selector : selectors) {
            JsonNode spec = selector.path("spec");
            JsonNode labels = spec.has("selector") && spec.path("selector").has("matchLabels")
                    ? spec.path("selector").path("matchLabels")
                    : spec.path("selector");
            List<JsonNode> pods = podsMatching(labels);
            assertThat(pods).as(name(selector) + " selects a workload's pods").isNotEmpty();
            List<String> ports = new ArrayList<>();
            spec.path("ports").forEach(p -> ports.add(p.path("targetPort").asText()));
            spec.path("podMetricsEndpoints")
                    .forEach(p -> ports.add(p.path("port").asText()));
            for (String port : ports) {
                for (JsonNode pod : pods) {
                    assertThat(port(pod.path("containers").get(0), port))
                            .as(name(selector) + " port " + port)
                            .isPositive();
                }
            }
        }
    }

    @Test
    void tokenPulseContainersRunTheImageTheProfileBuilds() {
        String image = System.getProperty("tokenpulse.image");
        assertThat(image).startsWith("tokenpulse:");
        assertThat(tokenpulseContainers())
                .hasSize(3)
                .allSatisfy(container ->
                        assertThat(container.path("image").asText()).isEqualTo(image));
    }

    @Test
    void theAlertRulesAreThePrometheusRulesFileAsAPrometheusRule() throws IOException {
        JsonNode rule = only("PrometheusRule");
        assertThat(rule.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        JsonNode groups = YAML.readTree(
                        ROOT.resolve("prometheus/rules/tokenpulse.rules.yml").toFile())
                .path("groups");
        assertThat(groups).as("the rules file's groups").isNotEmpty();
        assertThat(rule.path("spec").path("groups"))
                .as("alert-rules.yaml is prometheus/rules/tokenpulse.rules.yml's groups: copy them again")
                .isEqualTo(groups);
    }

    @Test
    void everyDashboardIsAConfigMapForGrafanasSidecarWithTheFileAsItIs() throws IOException {
        List<DashboardFiles.Dashboard> dashboards = DashboardFiles.load();
        assertThat(dashboards).isNotEmpty();
        for (List<JsonNode> rendered : List.of(resources, secured)) {
            List<JsonNode> configMaps = all(rendered, "ConfigMap").stream()
                    .filter(c -> c.path("metadata")
                            .path("labels")
                            .path("grafana_dashboard")
                            .asText()
                            .equals("1"))
                    .toList();
            assertThat(configMaps).as("one ConfigMap per dashboard").hasSameSizeAs(dashboards);
            for (DashboardFiles.Dashboard dashboard : dashboards) {
                String file = dashboard.file().getFileName().toString();
                String content = Files.readString(dashboard.file());
                assertThat(configMaps)
                        .as(file + ", its content as it is (generated from grafana/dashboards)")
                        .anySatisfy(c ->
                                assertThat(c.path("data").path(file).asText()).isEqualTo(content));
            }
        }
    }

    @Test
    void theSecuredOverlaysKafkaUsersHaveTheSecuredPlatformsUsersAndAcls() {
        List<JsonNode> users = all(secured, "KafkaUser");
        assertThat(users.stream().map(KubernetesManifestsTest::name))
                .containsExactlyInAnyOrder(SaslUsers.ADMIN, SaslUsers.BENCH, SaslUsers.AGGREGATE);
        Topics topics = Topics.create(null, false);
        List<AclBinding> platform = PipelineAcls.bindings(topics, StreamsSettings.DEFAULT_APPLICATION_ID);
        for (JsonNode user : users) {
            assertThat(user.path("metadata")
                            .path("labels")
                            .path("strimzi.io/cluster")
                            .asText())
                    .isEqualTo(name(only("Kafka")));
            assertThat(user.path("spec").path("authentication").path("type").asText())
                    .as(name(user))
                    .isEqualTo("scram-sha-512");
            TreeSet<String> expected = new TreeSet<>();
            platform.stream()
                    .filter(acl -> acl.entry().principal().equals("User:" + name(user)))
                    .forEach(acl -> expected.add(strimzi(acl)));
            TreeSet<String> declared = new TreeSet<>();
            for (JsonNode acl : user.path("spec").path("authorization").path("acls")) {
                JsonNode resource = acl.path("resource");
                for (String operation : texts(acl.path("operations"))) {
                    declared.add(acl(
                            resource.path("type").asText(),
                            resource.path("name").asText(),
                            resource.path("patternType").asText(),
                            operation));
                }
            }
            assertThat(declared).as(name(user) + "'s ACLs").isEqualTo(expected);
        }
    }

    @Test
    void theSecuredOverlaysClientsAuthenticateWithScramAsTheirUser() {
        JsonNode kafka = only(secured, "Kafka");
        JsonNode listener = kafka.path("spec").path("kafka").path("listeners").get(0);
        assertThat(listener.path("authentication").path("type").asText()).isEqualTo("scram-sha-512");
        JsonNode authorization = kafka.path("spec").path("kafka").path("authorization");
        assertThat(authorization.path("type").asText()).isEqualTo("simple");
        assertThat(texts(authorization.path("superUsers"))).containsExactly(SaslUsers.ADMIN);
        Map<String, String> userOf = Map.of("aggregate", SaslUsers.AGGREGATE, "bench", SaslUsers.BENCH);
        int clients = 0;
        for (JsonNode container : tokenpulseContainers(secured)) {
            List<String> args = texts(container.path("args"));
            if (args.get(0).equals("simulate")) {
                continue;
            }
            clients++;
            List<String> properties = new ArrayList<>();
            for (int i = 0; i + 1 < args.size(); i++) {
                if (args.get(i).equals("--kafka-property")) {
                    properties.add(args.get(i + 1));
                }
            }
            assertThat(properties)
                    .as(args.get(0))
                    .containsExactly(
                            "security.protocol=SASL_PLAINTEXT",
                            "sasl.mechanism=" + SaslUsers.MECHANISM,
                            "sasl.jaas.config=$(KAFKA_SASL_JAAS_CONFIG)");
            assertThat(secret(container, "KAFKA_SASL_JAAS_CONFIG"))
                    .as(args.get(0))
                    .isEqualTo(userOf.get(args.get(0)));
        }
        assertThat(clients).isEqualTo(2);
        JsonNode registry = all(secured, "Deployment").stream()
                .filter(d -> name(d).equals("schema-registry"))
                .findFirst()
                .orElseThrow()
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
        assertThat(secret(registry, "SCHEMA_REGISTRY_KAFKASTORE_SASL_JAAS_CONFIG"))
                .isEqualTo(SaslUsers.ADMIN);
        assertThat(registry.path("env")).anySatisfy(env -> {
            assertThat(env.path("name").asText()).isEqualTo("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS");
            assertThat(env.path("value").asText()).startsWith("SASL_PLAINTEXT://" + name(kafka) + "-kafka-bootstrap:");
        });
    }

    /** One ACL as {@code type name pattern operation}, as a KafkaUser declares it. */
    private static String acl(String type, String name, String pattern, String operation) {
        return String.join(" ", type, name, pattern, operation);
    }

    /** A Kafka ACL in Strimzi's words: TRANSACTIONAL_ID as transactionalId, PREFIXED as prefix, DESCRIBE_CONFIGS as DescribeConfigs. */
    private static String strimzi(AclBinding binding) {
        String type = camel(binding.pattern().resourceType().name());
        String pattern = binding.pattern().patternType().name().equals("PREFIXED")
                ? "prefix"
                : binding.pattern().patternType().name().toLowerCase(Locale.ROOT);
        String operation = camel(binding.entry().operation().name());
        return acl(
                Character.toLowerCase(type.charAt(0)) + type.substring(1),
                binding.pattern().name(),
                pattern,
                operation);
    }

    /** {@code DESCRIBE_CONFIGS} as {@code DescribeConfigs}. */
    private static String camel(String constant) {
        return Arrays.stream(constant.split("_"))
                .map(w -> w.charAt(0) + w.substring(1).toLowerCase(Locale.ROOT))
                .reduce("", String::concat);
    }

    /** The Secret whose {@code sasl.jaas.config} the container's variable {@code name} holds; empty when none. */
    private static String secret(JsonNode container, String name) {
        for (JsonNode env : container.path("env")) {
            JsonNode ref = env.path("valueFrom").path("secretKeyRef");
            if (env.path("name").asText().equals(name)
                    && ref.path("key").asText().equals("sasl.jaas.config")) {
                return ref.path("name").asText();
            }
        }
        return "";
    }

    /** The containers that run the tokenpulse image, in the rendered order. */
    static List<JsonNode> tokenpulseContainers(List<JsonNode> resources) {
        List<JsonNode> containers = new ArrayList<>();
        for (JsonNode resource : resources) {
            for (JsonNode container :
                    resource.path("spec").path("template").path("spec").path("containers")) {
                if (container.path("image").asText().startsWith("tokenpulse")) {
                    containers.add(container);
                }
            }
        }
        return containers;
    }

    private static List<JsonNode> tokenpulseContainers() {
        return tokenpulseContainers(resources);
    }

    /** Whether http://host:port/... names a Service with that port whose pods have its target port. */
    private static boolean servicePort(String url) {
        String authority = url.replaceFirst("^https?://", "").split("/")[0];
        String host = authority.split(":")[0];
        int port = Integer.parseInt(authority.split(":")[1]);
        for (JsonNode service : all("Service")) {
            if (name(service).equals(host)) {
                for (JsonNode p : service.path("spec").path("ports")) {
                    if (p.path("port").asInt() == port) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static List<JsonNode> podsMatching(JsonNode labels) {
        List<JsonNode> pods = new ArrayList<>();
        for (JsonNode resource : resources) {
            JsonNode template = resource.path("spec").path("template");
            if (template.isMissingNode()) {
                continue;
            }
            boolean matches = true;
            for (Map.Entry<String, JsonNode> label : labels.properties()) {
                matches &= template.path("metadata")
                        .path("labels")
                        .path(label.getKey())
                        .asText()
                        .equals(label.getValue().asText());
            }
            if (matches && !labels.isEmpty()) {
                pods.add(template.path("spec"));
            }
        }
        return pods;
    }

    /** The container port named {@code name} (or numbered so), 0 when there is none. */
    private static int port(JsonNode container, String name) {
        for (JsonNode port : container.path("ports")) {
            if (port.path("name").asText().equals(name)
                    || port.path("containerPort").asText().equals(name)) {
                return port.path("containerPort").asInt();
            }
        }
        return 0;
    }

    static Optional<String> flag(List<String> args, String flag) {
        int at = args.indexOf(flag);
        return at < 0 || at + 1 >= args.size() ? Optional.empty() : Optional.of(args.get(at + 1));
    }

    static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.asText()));
        return texts;
    }

    private static String name(JsonNode resource) {
        return resource.path("metadata").path("name").asText();
    }

    private static List<JsonNode> all(String kind) {
        return all(resources, kind);
    }

    private static List<JsonNode> all(List<JsonNode> rendered, String kind) {
        return rendered.stream()
                .filter(r -> r.path("kind").asText().equals(kind))
                .toList();
    }

    private static JsonNode only(String kind) {
        return only(resources, kind);
    }

    private static JsonNode only(List<JsonNode> rendered, String kind) {
        List<JsonNode> found = all(rendered, kind);
        assertThat(found).as(kind).hasSize(1);
        return found.get(0);
    }

    private static JsonNode workload(String kind, String name) {
        return all(kind).stream()
                .filter(r -> name(r).equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in "
                        + Arrays.toString(resources.stream()
                                .map(KubernetesManifestsTest::name)
                                .toArray())));
    }
}
