package io.tokenpulse.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every resource of {@code deploy/kubernetes} and {@code deploy/kubernetes-secure}, as {@code kubectl
 * kustomize} renders them, against the schema of its kind, offline: read into the model class that
 * describes it — Kubernetes' own kinds from fabric8's {@code kubernetes-model}, the Prometheus Operator's
 * from fabric8's {@code openshift-model-monitoring}, Strimzi's from Strimzi's own API ({@code io.strimzi:api},
 * the classes its CRDs are generated from) — strictly: a field the class does not have (the model classes
 * would keep it aside, as an API server drops or refuses it), a value of the wrong type and an unknown
 * enum value fail, naming the resource and the field's path. Required fields and value patterns are
 * not checked (the classes do not say them); {@link KubernetesManifestsTest} checks the values that matter.
 */
class KubernetesSchemasTest {

    /** The model class of each {@code apiVersion/kind} the manifests may use. */
    private static final Map<String, Class<? extends HasMetadata>> MODEL = Map.of(
            "v1/ConfigMap", ConfigMap.class,
            "v1/Service", Service.class,
            "apps/v1/Deployment", Deployment.class,
            "batch/v1/Job", Job.class,
            "monitoring.coreos.com/v1/PodMonitor", PodMonitor.class,
            "monitoring.coreos.com/v1/PrometheusRule", PrometheusRule.class,
            "kafka.strimzi.io/v1beta2/Kafka", Kafka.class,
            "kafka.strimzi.io/v1beta2/KafkaNodePool", KafkaNodePool.class,
            "kafka.strimzi.io/v1beta2/KafkaTopic", KafkaTopic.class,
            "kafka.strimzi.io/v1beta2/KafkaUser", KafkaUser.class);

    /**
     * Jackson reading into the model classes with their catch-all for unknown fields ({@code @JsonAnySetter})
     * taken away, so that an unknown field fails, and without coercing scalars ({@code "3"} is no integer).
     */
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .addModule(new SimpleModule().setDeserializerModifier(new BeanDeserializerModifier() {
                @Override
                public BeanDeserializerBuilder updateBuilder(
                        DeserializationConfig config, BeanDescription description, BeanDeserializerBuilder builder) {
                    builder.setAnySetter(null);
                    return builder;
                }
            }))
            .build();

    private static List<JsonNode> resources;

    @BeforeAll
    static void render() throws Exception {
        resources = KubernetesManifestsTest.rendered();
    }

    @Test
    void everyModelClassIsTheKindAndVersionItStandsFor() {
        MODEL.forEach((apiVersionKind, model) -> assertThat(
                        HasMetadata.getApiVersion(model) + "/" + HasMetadata.getKind(model))
                .isEqualTo(apiVersionKind));
    }

    @Test
    void everyRenderedResourceFitsTheSchemaOfItsKind() {
        assertThat(resources).hasSizeGreaterThanOrEqualTo(20);
        List<String> problems = new ArrayList<>();
        for (JsonNode resource : resources) {
            problems.addAll(problems(resource));
        }
        assertThat(problems).as("resources that do not fit their kind's schema").isEmpty();
    }

    @Test
    void aMisspeltFieldFailsWithItsPath() {
        ObjectNode deployment = copyOf("Deployment");
        ((ObjectNode) deployment.path("spec"))
                .set("replica", deployment.path("spec").path("replicas"));
        assertThat(problems(deployment))
                .singleElement()
                .asString()
                .contains("Deployment ", "spec.replica", "Unrecognized field");

        ObjectNode kafka = copyOf("Kafka");
        ObjectNode listener =
                (ObjectNode) kafka.path("spec").path("kafka").path("listeners").get(0);
        listener.set("prot", listener.remove("port"));
        assertThat(problems(kafka))
                .singleElement()
                .asString()
                .contains("Kafka tokenpulse", "spec.kafka.listeners[0].prot");

        ObjectNode topic = copyOf("KafkaTopic");
        ((ObjectNode) topic.path("spec")).put("partitions", "three");
        assertThat(problems(topic)).singleElement().asString().contains("spec.partitions");

        ObjectNode user = copyOf("KafkaUser");
        ((ObjectNode) user.path("spec").path("authentication")).put("type", "scram-sha-1024");
        assertThat(problems(user)).singleElement().asString().contains("spec.authentication");

        ObjectNode unknown = copyOf("Service");
        unknown.put("kind", "Servic");
        assertThat(problems(unknown)).singleElement().asString().contains("no schema for v1/Servic");
    }

    /** What is wrong with {@code resource} against its kind's schema; empty when nothing. */
    private static List<String> problems(JsonNode resource) {
        String apiVersionKind = resource.path("apiVersion").asText() + "/"
                + resource.path("kind").asText();
        String what = resource.path("kind").asText() + " "
                + resource.path("metadata").path("name").asText();
        Class<? extends HasMetadata> model = MODEL.get(apiVersionKind);
        if (model == null) {
            return List.of(what + ": no schema for " + apiVersionKind + " (known: " + MODEL.keySet() + ")");
        }
        try {
            STRICT.treeToValue(resource, model);
            return List.of();
        } catch (JsonMappingException e) {
            return List.of(what + ": " + path(e) + ": " + e.getOriginalMessage());
        } catch (Exception e) {
            return List.of(what + ": " + e);
        }
    }

    /** The field's path in the resource, as {@code spec.kafka.listeners[0].prot}. */
    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(reference -> reference.getFieldName() != null
                        ? "." + reference.getFieldName()
                        : "[" + reference.getIndex() + "]")
                .collect(Collectors.joining())
                .replaceFirst("^\\.", "");
    }

    private static ObjectNode copyOf(String kind) {
        return resources.stream()
                .filter(r -> r.path("kind").asText().equals(kind))
                .findFirst()
                .map(r -> (ObjectNode) r.deepCopy())
                .orElseThrow();
    }
}
