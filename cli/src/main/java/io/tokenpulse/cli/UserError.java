package io.tokenpulse.cli;

/**
 * A mistake the user can fix (bad flag value, unreachable server, missing file): printed as one
 * line without a stack trace. Exit code 2 for usage errors, 1 for everything else.
 */
final class UserError extends RuntimeException {
    private final int exitCode;

    UserError(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    static UserError usage(String message) {
        return new UserError(message, 2);
    }

    static UserError failure(String message) {
        return new UserError(message, 1);
    }

    int exitCode() {
        return exitCode;
    }
}
