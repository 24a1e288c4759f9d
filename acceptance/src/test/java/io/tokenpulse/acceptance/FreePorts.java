package io.tokenpulse.acceptance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Ports on 127.0.0.1 free a moment ago: for flags that take a port, and for ports nothing listens on. */
final class FreePorts {
    private FreePorts() {}

    static int one() {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
