package io.tokenpulse.platform.registry;

/**
 * A request the registry refuses, carrying Confluent's error code (e.g. 40401). The HTTP status is
 * the code's first three digits, as in Confluent's Schema Registry.
 */
final class RegistryException extends Exception {
    static final int SUBJECT_NOT_FOUND = 40401;
    static final int VERSION_NOT_FOUND = 40402;
    static final int SCHEMA_NOT_FOUND = 40403;
    static final int SUBJECT_COMPATIBILITY_NOT_CONFIGURED = 40408;
    static final int INCOMPATIBLE_SCHEMA = 409;
    static final int INVALID_SCHEMA = 42201;
    static final int INVALID_VERSION = 42202;
    static final int INVALID_COMPATIBILITY_LEVEL = 42203;
    static final int STORE_ERROR = 50001;

    private final int errorCode;

    RegistryException(int errorCode, String message) {
        super(message);
        this.errorCode = errorCode;
    }

    int errorCode() {
        return errorCode;
    }

    int httpStatus() {
        return errorCode >= 1000 ? errorCode / 100 : errorCode;
    }

    static RegistryException subjectNotFound(String subject) {
        return new RegistryException(SUBJECT_NOT_FOUND, "Subject '" + subject + "' not found.");
    }

    static RegistryException versionNotFound(int version) {
        return new RegistryException(VERSION_NOT_FOUND, "Version " + version + " not found.");
    }
}
