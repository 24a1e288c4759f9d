package io.tokenpulse.platform.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.platform.registry.StoreRecord.Config;
import io.tokenpulse.platform.registry.StoreRecord.SchemaVersion;
import io.tokenpulse.schemas.registry.Compatibility;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The JSON the registry writes to its topic reads back as the same entry. */
class KafkaSchemaStoreTest {

    @Test
    void schemaVersionsRoundTripIncludingTheDeletedMark() throws Exception {
        SchemaVersion version = new SchemaVersion("a/value", 3, 7, "\"string\"", true);

        assertThat(KafkaSchemaStore.decode(KafkaSchemaStore.encode(version))).isEqualTo(version);
    }

    @Test
    void globalAndSubjectConfigsRoundTrip() throws Exception {
        Config global = new Config(null, Compatibility.FULL_TRANSITIVE);
        Config subject = new Config("a-value", Compatibility.NONE);

        assertThat(KafkaSchemaStore.decode(KafkaSchemaStore.encode(global))).isEqualTo(global);
        assertThat(KafkaSchemaStore.decode(KafkaSchemaStore.encode(subject))).isEqualTo(subject);
    }

    @Test
    void entriesOfSameSubjectAndVersionShareAKeySoCompactionKeepsTheLast() {
        SchemaVersion live = new SchemaVersion("a", 1, 1, "\"string\"", false);

        assertThat(live.asDeleted().key()).isEqualTo(live.key());
        assertThat(new Config(null, Compatibility.FULL).key())
                .isNotEqualTo(new Config("CONFIG", Compatibility.FULL).key());
    }

    @Test
    void unknownEntryTypesAreRejectedNotGuessed() {
        byte[] unknown = "{\"type\":\"MODE\",\"subject\":\"a\"}".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> KafkaSchemaStore.decode(unknown))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("MODE");
    }
}
