package io.tokenpulse.schemas.registry;

/**
 * A schema registry request failed. The message is one line saying what went wrong and what to
 * change; it never contains credentials.
 */
public class SchemaRegistryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int httpStatus;
    private final int errorCode;

    /**
     * @param httpStatus HTTP status of the registry's answer, 0 when none was received
     * @param errorCode Confluent {@code error_code} of the answer, 0 when it had none
     */
    public SchemaRegistryException(String message, int httpStatus, int errorCode, Throwable cause) {
        super(message, cause);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    /** HTTP status of the registry's answer; 0 when the registry could not be reached. */
    public int httpStatus() {
        return httpStatus;
    }

    /** Confluent {@code error_code} (40401 subject not found, 40403 schema not found, ...), or 0. */
    public int errorCode() {
        return errorCode;
    }
}
