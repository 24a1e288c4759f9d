package io.tokenpulse.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SchemaRegistrySettingsTest {

    @Test
    void commaSeparatedUrlsAreTriedInOrderWithDefaultTimeouts() {
        SchemaRegistrySettings settings = SchemaRegistrySettings.of("http://a:8081, https://b:8081/sr");

        assertThat(settings.urls()).containsExactly(URI.create("http://a:8081"), URI.create("https://b:8081/sr"));
        assertThat(settings.connectTimeout()).isEqualTo(SchemaRegistrySettings.DEFAULT_CONNECT_TIMEOUT);
        assertThat(settings.requestTimeout()).isEqualTo(SchemaRegistrySettings.DEFAULT_REQUEST_TIMEOUT);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "no URL          | ''                        | no schema registry URL given; set --schema-registry-url",
                "no scheme       | localhost:8081            | must look like http://host:port",
                "other scheme    | ftp://h:1                 | must look like http://host:port",
                "credentials     | http://bob:pw123@h:8081   | http://****@h:8081' carries credentials",
                "query           | http://h:8081/?x=1        | must not have a query",
            })
    void badUrlsAreRejectedWithWhatToChange(String why, String urls, String message) {
        assertThatThrownBy(() -> SchemaRegistrySettings.of(urls))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .message()
                .doesNotContain("pw123");
    }

    @Test
    void basicAuthNeedsUserAndPasswordAndExcludesABearerToken() {
        SchemaRegistrySettings settings = SchemaRegistrySettings.of("http://h:1");

        assertThatThrownBy(() -> settings.withBasicAuth("justapassword"))
                .hasMessage("schema registry basic-auth credentials must look like user:password");
        assertThatThrownBy(() -> settings.withBasicAuth("u:p").withBearerToken("t"))
                .hasMessage("schema registry basic-auth credentials and a bearer token were both given; use one");
        assertThatThrownBy(() -> settings.withBearerToken("has space"))
                .hasMessageContaining("bearer token must be non-empty printable ASCII");
    }

    @Test
    void nonPositiveTimeoutIsRejected() {
        assertThatThrownBy(() ->
                        SchemaRegistrySettings.of("http://h:1").withTimeouts(Duration.ZERO, Duration.ofSeconds(1)))
                .hasMessage("schema registry connect timeout must be positive, got PT0S");
    }

    @Test
    void unreadableTruststoreIsNamedButItsPasswordIsNot(@TempDir Path dir) {
        Path store = dir.resolve("truststore.p12");
        SchemaRegistrySettings settings = SchemaRegistrySettings.of("https://h:1")
                .withTruststore(new SchemaRegistrySettings.Truststore(store, "tr-pass-77", "PKCS12"));

        assertThat(settings.toString()).contains("truststore.p12").doesNotContain("tr-pass-77");
        assertThatThrownBy(() -> new SchemaRegistryClient(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read the schema registry truststore " + store + " as PKCS12")
                .message()
                .doesNotContain("tr-pass-77");
    }
}
