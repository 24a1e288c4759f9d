package io.tokenpulse.platform.security;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kafka client property files of a secured platform, one per SASL user, in {@code
 * <data dir>/security/<role>.properties}: readable by the owner only (directory 700, files 600),
 * because each holds a password. Clients load one with {@code --kafka-property-file}. A restart
 * reads the passwords back, so clients started earlier keep working.
 */
public final class CredentialFiles {

    private static final Pattern PASSWORD = Pattern.compile("password=\"([^\"]*)\"");
    private static final Map<String, String> FILE_BY_USER = Map.of(
            SaslUsers.ADMIN, "admin.properties",
            SaslUsers.BENCH, "bench.properties",
            SaslUsers.AGGREGATE, "aggregate.properties");

    private CredentialFiles() {}

    /** Whether the data dir holds the files of a secured platform. */
    public static boolean exist(Path dataDir) {
        return Files.exists(file(dataDir, SaslUsers.ADMIN));
    }

    /** The property file of {@code user}. */
    public static Path file(Path dataDir, String user) {
        return dataDir.resolve("security").resolve(FILE_BY_USER.get(user));
    }

    /** Reads the users' passwords back, or creates random ones and writes their files. */
    public static SaslUsers loadOrCreate(Path dataDir) {
        try {
            if (exist(dataDir)) {
                return new SaslUsers(
                        password(dataDir, SaslUsers.ADMIN),
                        password(dataDir, SaslUsers.BENCH),
                        password(dataDir, SaslUsers.AGGREGATE));
            }
            SaslUsers users = SaslUsers.random();
            Path dir = file(dataDir, SaslUsers.ADMIN).getParent();
            Files.createDirectories(
                    dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            // The admin file last: its presence says that the set is complete.
            for (String user : new String[] {SaslUsers.BENCH, SaslUsers.AGGREGATE, SaslUsers.ADMIN}) {
                write(file(dataDir, user), users.clientProperties(user), user);
            }
            return users;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read or write the credentials in " + dataDir.resolve("security") + ": " + e.getMessage(),
                    e);
        }
    }

    private static String password(Path dataDir, String user) throws IOException {
        Path file = file(dataDir, user);
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Matcher matcher = PASSWORD.matcher(properties.getProperty("sasl.jaas.config", ""));
        if (!matcher.find()) {
            throw new IllegalArgumentException(
                    file + " has no password in sasl.jaas.config: restore it, or use a new --data-dir");
        }
        return matcher.group(1);
    }

    private static void write(Path file, Map<String, String> clientProperties, String user) throws IOException {
        Files.deleteIfExists(file);
        // Created owner-only, so the password is never readable by others, not even for a moment.
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            properties.store(
                    writer, "Kafka client properties of SASL user " + user + " (tokenpulse platform --secure)");
        }
    }
}
