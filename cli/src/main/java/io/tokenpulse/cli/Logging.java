package io.tokenpulse.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The log levels of {@code simplelogger.properties}: libraries' warnings a user cannot act on are
 * quieted there, and {@code --verbose} shows them again.
 */
final class Logging {
    private static final String CONFIG = "/simplelogger.properties";
    private static final String LOGGER_PREFIX = "org.slf4j.simpleLogger.log.";

    private Logging() {}

    /**
     * Lifts every logger the configuration quiets back to warn. slf4j-simple reads system properties
     * before its file and computes a logger's level when the logger is created, so this must run before
     * the libraries start (it does: right after parsing, before the command runs).
     */
    static void showLibraryWarnings() {
        Properties config = new Properties();
        try (InputStream in = Logging.class.getResourceAsStream(CONFIG)) {
            if (in == null) {
                return;
            }
            config.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String key : config.stringPropertyNames()) {
            if (key.startsWith(LOGGER_PREFIX)) {
                System.setProperty(key, "warn");
            }
        }
    }
}
