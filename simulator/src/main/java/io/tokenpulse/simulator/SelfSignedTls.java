package io.tokenpulse.simulator;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;

/**
 * The simulator's https: a fresh self-signed certificate for {@code localhost} and {@code 127.0.0.1},
 * made by the JDK's own {@code keytool} at start. (Netty's {@code SelfSignedCertificate} needs either
 * BouncyCastle's PKIX library or JVM flags opening the JDK's internal certificate classes; keytool is in
 * every JDK and JRE.) Clients must trust it explicitly, e.g. with bench's {@code --insecure}.
 */
final class SelfSignedTls {

    private static final char[] PASSWORD = "tokenpulse-simulator".toCharArray();

    private SelfSignedTls() {}

    /** A server context with a new self-signed certificate; a JVM without keytool is a one-line error. */
    static SslContext serverContext() {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("tp-sim-tls");
            Path store = dir.resolve("simulator.p12");
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Process process = new ProcessBuilder(List.of(
                            keytool.toString(),
                            "-genkeypair",
                            "-alias",
                            "simulator",
                            "-keyalg",
                            "EC",
                            "-groupname",
                            "secp256r1",
                            "-dname",
                            "CN=localhost",
                            "-ext",
                            "SAN=dns:localhost,ip:127.0.0.1",
                            "-validity",
                            "30",
                            "-storetype",
                            "PKCS12",
                            "-keystore",
                            store.toString(),
                            "-storepass",
                            new String(PASSWORD),
                            "-keypass",
                            new String(PASSWORD)))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool could not make the simulator's certificate: "
                        + output.strip().lines().findFirst().orElse("(no output)"));
            }
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keys.load(in, PASSWORD);
            }
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(keys, PASSWORD);
            return SslContextBuilder.forServer(factory).build();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(
                    "cannot make the simulator's self-signed certificate with the JDK's keytool: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making the simulator's certificate", e);
        } finally {
            deleteQuietly(dir);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary file left behind harms nothing
        }
    }
}
