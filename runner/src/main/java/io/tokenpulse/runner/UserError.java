package io.tokenpulse.runner;

/**
 * A mistake the user can fix (bad flag value, unreachable server, missing file): the command prints
 * it as one line without a stack trace. Exit code 2 for usage errors, 1 for everything else.
 */
public final class UserError extends RuntimeException {
    private final int exitCode;

    public UserError(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public static UserError usage(String message) {
        return new UserError(message, 2);
    }

    public static UserError failure(String message) {
        return new UserError(message, 1);
    }

    public int exitCode() {
        return exitCode;
    }
}
