package io.tokenpulse.schemas.registry;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * How to reach a schema registry: one or more base URLs (tried in order until one answers), at
 * most one kind of credentials, optional TLS trust settings and timeouts.
 *
 * <p>{@link #toString()} never shows the password or the token.
 *
 * @param urls base URLs, {@code http} or {@code https}, without credentials in them
 * @param basicAuthUserInfo HTTP basic credentials as {@code user:password}
 * @param bearerToken a token sent as {@code Authorization: Bearer <token>}
 * @param truststore where to read the certificates that sign the registry's TLS certificate
 * @param sslContext a ready TLS context, for callers that build their own (exclusive with truststore)
 * @param connectTimeout how long to wait for a TCP/TLS connection
 * @param requestTimeout how long to wait for an answer once connected
 */
public record SchemaRegistrySettings(
        List<URI> urls,
        Optional<String> basicAuthUserInfo,
        Optional<String> bearerToken,
        Optional<Truststore> truststore,
        Optional<SSLContext> sslContext,
        Duration connectTimeout,
        Duration requestTimeout) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

    public SchemaRegistrySettings {
        urls = List.copyOf(urls);
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("no schema registry URL given; set --schema-registry-url");
        }
        urls.forEach(SchemaRegistrySettings::checkUrl);
        Objects.requireNonNull(basicAuthUserInfo, "basicAuthUserInfo");
        Objects.requireNonNull(bearerToken, "bearerToken");
        Objects.requireNonNull(truststore, "truststore");
        Objects.requireNonNull(sslContext, "sslContext");
        if (basicAuthUserInfo.isPresent() && bearerToken.isPresent()) {
            throw new IllegalArgumentException(
                    "schema registry basic-auth credentials and a bearer token were both given; use one");
        }
        basicAuthUserInfo.ifPresent(userInfo -> {
            if (userInfo.indexOf(':') < 1) {
                throw new IllegalArgumentException(
                        "schema registry basic-auth credentials must look like user:password");
            }
        });
        bearerToken.ifPresent(token -> {
            if (token.isBlank() || token.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
                throw new IllegalArgumentException(
                        "schema registry bearer token must be non-empty printable ASCII without spaces");
            }
        });
        if (truststore.isPresent() && sslContext.isPresent()) {
            throw new IllegalArgumentException("give a schema registry truststore or an SSLContext, not both");
        }
        requirePositive(connectTimeout, "connect timeout");
        requirePositive(requestTimeout, "request timeout");
    }

    /**
     * Settings for the comma-separated base URLs {@code urls}, without credentials or TLS settings,
     * with the default timeouts.
     *
     * @throws IllegalArgumentException when a URL is malformed, not http(s) or carries credentials
     */
    public static SchemaRegistrySettings of(String urls) {
        List<URI> parsed = new ArrayList<>();
        for (String url : urls.split(",")) {
            if (url.isBlank()) {
                continue;
            }
            try {
                parsed.add(new URI(url.trim()));
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("schema registry URL '" + redact(url.trim()) + "' is malformed ("
                        + e.getReason() + "); check --schema-registry-url");
            }
        }
        return new SchemaRegistrySettings(
                parsed,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                DEFAULT_CONNECT_TIMEOUT,
                DEFAULT_REQUEST_TIMEOUT);
    }

    /** These settings with HTTP basic credentials {@code user:password}. */
    public SchemaRegistrySettings withBasicAuth(String userInfo) {
        return new SchemaRegistrySettings(
                urls, Optional.of(userInfo), bearerToken, truststore, sslContext, connectTimeout, requestTimeout);
    }

    /** These settings with a bearer token. */
    public SchemaRegistrySettings withBearerToken(String token) {
        return new SchemaRegistrySettings(
                urls, basicAuthUserInfo, Optional.of(token), truststore, sslContext, connectTimeout, requestTimeout);
    }

    /** These settings trusting the certificates in {@code truststore}. */
    public SchemaRegistrySettings withTruststore(Truststore store) {
        return new SchemaRegistrySettings(
                urls, basicAuthUserInfo, bearerToken, Optional.of(store), sslContext, connectTimeout, requestTimeout);
    }

    /** These settings using a TLS context built by the caller. */
    public SchemaRegistrySettings withSslContext(SSLContext context) {
        return new SchemaRegistrySettings(
                urls, basicAuthUserInfo, bearerToken, truststore, Optional.of(context), connectTimeout, requestTimeout);
    }

    /** These settings with other timeouts. */
    public SchemaRegistrySettings withTimeouts(Duration connect, Duration request) {
        return new SchemaRegistrySettings(
                urls, basicAuthUserInfo, bearerToken, truststore, sslContext, connect, request);
    }

    /** The TLS context to use: the given one, one built from the truststore, or the JDK default. */
    SSLContext tlsContext() {
        if (sslContext.isPresent()) {
            return sslContext.get();
        }
        if (truststore.isPresent()) {
            return truststore.get().load();
        }
        try {
            return SSLContext.getDefault();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no default TLS context: " + e.getMessage(), e);
        }
    }

    /** The URLs joined by ", ", for messages. */
    String urlList() {
        return String.join(", ", urls.stream().map(URI::toString).toList());
    }

    @Override
    public String toString() {
        return "SchemaRegistrySettings[urls=" + urlList()
                + ", auth="
                + (basicAuthUserInfo.isPresent()
                        ? "basic(" + user(basicAuthUserInfo.get()) + ")"
                        : bearerToken.isPresent() ? "bearer(****)" : "none")
                + ", truststore=" + truststore.map(Truststore::toString).orElse("none")
                + ", sslContext=" + (sslContext.isPresent() ? "given" : "none")
                + ", connectTimeout=" + connectTimeout + ", requestTimeout=" + requestTimeout + "]";
    }

    private static String user(String userInfo) {
        return userInfo.substring(0, userInfo.indexOf(':')) + ":****";
    }

    private static void checkUrl(URI url) {
        String scheme = url.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null) {
            throw new IllegalArgumentException("schema registry URL '" + redact(url.toString())
                    + "' must look like http://host:port or https://host:port; check --schema-registry-url");
        }
        if (url.getRawUserInfo() != null) {
            throw new IllegalArgumentException("schema registry URL '" + redact(url.toString())
                    + "' carries credentials; pass them as basic-auth credentials instead of in the URL");
        }
        if (url.getRawQuery() != null || url.getRawFragment() != null) {
            throw new IllegalArgumentException("schema registry URL '" + url
                    + "' must not have a query or fragment; give the registry's base URL");
        }
    }

    /** Hides whatever sits between "//" and "@", so a mistyped URL never prints a password. */
    private static String redact(String url) {
        return url.replaceFirst("//[^/@]*@", "//****@");
    }

    private static void requirePositive(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("schema registry " + what + " must be positive, got " + d);
        }
    }

    /**
     * A truststore file: {@code type} is a {@link KeyStore} type such as {@code PKCS12} or
     * {@code JKS}; {@code password} may be empty. {@link #toString()} hides the password.
     */
    public record Truststore(Path path, String password, String type) {
        public Truststore {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(password, "password");
            Objects.requireNonNull(type, "type");
        }

        /** Reads the store and builds a TLS context that trusts its certificates. */
        SSLContext load() {
            try (InputStream in = Files.newInputStream(path)) {
                KeyStore store = KeyStore.getInstance(type);
                store.load(in, password.isEmpty() ? null : password.toCharArray());
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(store);
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(null, tmf.getTrustManagers(), null);
                return context;
            } catch (IOException | GeneralSecurityException e) {
                // The cause's message can name the file but never the password.
                throw new IllegalArgumentException(
                        "cannot read the schema registry truststore " + path + " as " + type + " (" + e.getMessage()
                                + "); check its path, type and password",
                        e);
            }
        }

        @Override
        public String toString() {
            return "Truststore[path=" + path + ", type=" + type + ", password=****]";
        }
    }
}
