package io.tokenpulse.simulator;

/**
 * A fault a test asks for with the request header {@value #HEADER}: {@code status=503} answers with
 * that HTTP status and an OpenAI-style error body; {@code reset-after=N} resets the TCP connection
 * (RST) after N SSE events were sent. Items are separated by commas.
 *
 * @param status           HTTP status to answer with, 0 for none
 * @param resetAfterEvents events to send before resetting the connection, 0 for none
 */
record Fault(int status, int resetAfterEvents) {

    static final String HEADER = "x-simulator-fault";
    static final Fault NONE = new Fault(0, 0);

    static Fault parse(String header) throws BadRequestException {
        if (header == null || header.isBlank()) {
            return NONE;
        }
        int status = 0;
        int resetAfter = 0;
        for (String item : header.split(",")) {
            String[] kv = item.strip().split("=", 2);
            try {
                switch (kv[0]) {
                    case "status" -> status = Integer.parseInt(kv[1]);
                    case "reset-after" -> resetAfter = Integer.parseInt(kv[1]);
                    default -> throw new BadRequestException(HEADER + ": unknown fault '" + kv[0] + "', use status=N or reset-after=N");
                }
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                throw new BadRequestException(HEADER + ": '" + item.strip() + "' needs a number, like status=503 or reset-after=3");
            }
        }
        if ((status != 0 && (status < 400 || status > 599)) || resetAfter < 0) {
            throw new BadRequestException(HEADER + ": status must be 400..599 and reset-after >= 1, got '" + header + "'");
        }
        return new Fault(status, resetAfter);
    }
}
