package io.tokenpulse.simulator;

/** A request the simulator refuses with 400; the message goes to the client as the error message. */
final class BadRequestException extends Exception {
    BadRequestException(String message) {
        super(message, null, false, false);
    }
}
