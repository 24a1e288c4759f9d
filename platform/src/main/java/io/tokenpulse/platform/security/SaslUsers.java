package io.tokenpulse.platform.security;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SASL users of a secured embedded broker and their passwords: an admin (the broker itself, the
 * local Schema Registry and the platform's set-up), and one user per client role. Passwords are
 * random, 32 bytes, base64url: no quotes, commas or brackets that would need escaping in a JAAS line
 * or in Kafka's {@code --add-scram} syntax.
 *
 * <p>Never print a {@code SaslUsers}: {@link #toString} hides the passwords.
 */
public record SaslUsers(String adminPassword, String benchPassword, String aggregatePassword) {

    /** The mechanism clients use; SCRAM keeps the password itself off the wire. */
    public static final String MECHANISM = "SCRAM-SHA-512";

    public static final String ADMIN = "tokenpulse-admin";
    public static final String BENCH = "tokenpulse-bench";
    public static final String AGGREGATE = "tokenpulse-aggregate";

    private static final SecureRandom RANDOM = new SecureRandom();

    public SaslUsers {
        for (String password : List.of(adminPassword, benchPassword, aggregatePassword)) {
            if (password == null || !password.matches("[A-Za-z0-9_-]{16,}")) {
                throw new IllegalArgumentException("a SASL password must be at least 16 base64url characters");
            }
        }
    }

    /** Three fresh random passwords. */
    public static SaslUsers random() {
        return new SaslUsers(randomPassword(), randomPassword(), randomPassword());
    }

    /** User name to password, admin first. */
    public Map<String, String> passwords() {
        Map<String, String> passwords = new LinkedHashMap<>();
        passwords.put(ADMIN, adminPassword);
        passwords.put(BENCH, benchPassword);
        passwords.put(AGGREGATE, aggregatePassword);
        return passwords;
    }

    /** The Kafka client properties with which {@code user} connects over SASL/SCRAM. */
    public Map<String, String> clientProperties(String user) {
        String password = passwords().get(user);
        if (password == null) {
            throw new IllegalArgumentException(
                    "unknown SASL user " + user + "; known: " + passwords().keySet());
        }
        return Map.of(
                "security.protocol",
                "SASL_PLAINTEXT",
                "sasl.mechanism",
                MECHANISM,
                "sasl.jaas.config",
                scramJaas(user, password));
    }

    static String scramJaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\""
                + password + "\";";
    }

    @Override
    public String toString() {
        return "SaslUsers" + passwords().keySet() + " (passwords hidden)";
    }

    private static String randomPassword() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
