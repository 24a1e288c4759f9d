package io.tokenpulse.platform.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.platform.Platform;
import io.tokenpulse.schemas.PipelineRole;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code platform --secure}'s broker: SCRAM users, their owner-only files, and least-privilege ACLs. */
class SecurePlatformIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dataDir;

    @Test
    void eachUserMayDoWhatItsRoleNeedsAndNothingElse() throws Exception {
        try (Platform platform = Platform.start(new Platform.Settings(dataDir, 0, 0, true))) {
            Topics topics = Topics.create(
                    new SchemaRegistryClient(
                            SchemaRegistrySettings.of(platform.registryUrl().toString())),
                    true);
            TopicAdmin.ensureExist(topics, platform.adminClientProperties(), 1, (short) 1, TIMEOUT);
            PipelineAcls.grant(platform.adminClientProperties(), topics, "tokenpulse-aggregator", TIMEOUT);

            Properties bench = client(platform, SaslUsers.BENCH);
            Properties aggregate = client(platform, SaslUsers.AGGREGATE);
            TopicAdmin.checkAccess(topics, PipelineRole.BENCH, bench, TIMEOUT);
            TopicAdmin.checkAccess(topics, PipelineRole.REPLAY, bench, TIMEOUT);
            TopicAdmin.checkAccess(topics, PipelineRole.CHART, bench, TIMEOUT);
            TopicAdmin.checkAccess(topics, PipelineRole.EXPORT, bench, TIMEOUT);
            TopicAdmin.checkAccess(topics, PipelineRole.AGGREGATE, aggregate, TIMEOUT);
            assertThatThrownBy(() -> TopicAdmin.checkAccess(topics, PipelineRole.AGGREGATE, bench, TIMEOUT))
                    .hasMessageContaining(
                            "does not let these credentials WRITE topic tokenpulse.request-metrics, which aggregate"
                                    + " needs: use the credentials meant for aggregate");
            assertThatThrownBy(() -> TopicAdmin.checkAccess(topics, PipelineRole.BENCH, aggregate, TIMEOUT))
                    .hasMessageContaining("WRITE topic tokenpulse.runs, which bench needs");

            // The ACLs hold on the wire too, not only in the check: bench writes request events but cannot read them.
            try (KafkaProducer<String, String> producer =
                    new KafkaProducer<>(bench, new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>(topics.requests().name(), "k", "v"))
                        .get(30, TimeUnit.SECONDS);
            }
            try (KafkaConsumer<String, String> consumer =
                    new KafkaConsumer<>(bench, new StringDeserializer(), new StringDeserializer())) {
                consumer.assign(List.of(new TopicPartition(topics.requests().name(), 0)));
                assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(10)))
                        .isInstanceOf(TopicAuthorizationException.class);
            }

            Properties wrongPassword = client(platform, SaslUsers.BENCH);
            wrongPassword.put("sasl.jaas.config", SaslUsers.scramJaas(SaslUsers.BENCH, "not-the-password-0123456789"));
            assertThatThrownBy(() -> TopicAdmin.ensureExist(topics, wrongPassword, 1, (short) 1, TIMEOUT))
                    .hasMessageContaining("the credentials were refused")
                    .hasMessageContaining("check the user and password in sasl.jaas.config");
        }

        for (String user : List.of(SaslUsers.ADMIN, SaslUsers.BENCH, SaslUsers.AGGREGATE)) {
            assertThat(PosixFilePermissions.toString(
                            Files.getPosixFilePermissions(CredentialFiles.file(dataDir, user))))
                    .isEqualTo("rw-------");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve("security"))))
                .isEqualTo("rwx------");
        assertThatThrownBy(() -> Platform.start(new Platform.Settings(dataDir, 0, 0)))
                .hasMessageContaining("holds a secured broker: start it with tokenpulse platform --secure");
        // A restart keeps the users and their passwords: the files written before still work.
        try (Platform again = Platform.start(new Platform.Settings(dataDir, 0, 0, true))) {
            Topics topics = Topics.create(
                    new SchemaRegistryClient(
                            SchemaRegistrySettings.of(again.registryUrl().toString())),
                    true);
            TopicAdmin.checkAccess(topics, PipelineRole.AGGREGATE, client(again, SaslUsers.AGGREGATE), TIMEOUT);
        }
    }

    @Test
    void aPlaintextDataDirCannotBeSecuredLater(@TempDir Path plainDir) {
        try (Platform ignored = Platform.start(new Platform.Settings(plainDir, 0, 0))) {
            // formats the storage without users
        }
        assertThatThrownBy(() -> Platform.start(new Platform.Settings(plainDir, 0, 0, true)))
                .hasMessageContaining("started without --secure")
                .hasMessageContaining("pass a new --data-dir");
    }

    /** What a client loads from its credential file, plus the broker's current address. */
    private Properties client(Platform platform, String user) throws Exception {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(CredentialFiles.file(dataDir, user))) {
            properties.load(reader);
        }
        properties.put("bootstrap.servers", platform.bootstrapServers());
        return properties;
    }
}
