package io.tokenpulse.platform.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Picks free ports and turns a taken explicit port into a one-line message before Kafka tries it. */
final class Ports {

    private Ports() {}

    /**
     * Returns {@code port} when it is free on {@code host}, or a free port when it is 0. A free port can
     * in theory be taken again between this check and the broker's bind; on one machine that is rare
     * enough to accept rather than retry.
     */
    static int claim(String host, int port, String flag, int avoid) {
        if (port != 0) {
            requireFree(host, port, flag);
            return port;
        }
        while (true) {
            int candidate = bindAndRelease(host, 0);
            if (candidate != avoid) {
                return candidate;
            }
        }
    }

    /** Fails with a one-line message naming {@code host:port} and {@code flag} when the port is taken. */
    static void requireFree(String host, int port, String flag) {
        if (!isFree(host, port)) {
            throw new IllegalArgumentException(
                    host + ":" + port + " is already in use: pass another " + flag + " or omit it to pick a free one");
        }
    }

    private static boolean isFree(String host, int port) {
        try {
            bindAndRelease(host, port);
            return true;
        } catch (UncheckedIOException e) {
            return false;
        }
    }

    private static int bindAndRelease(String host, int port) {
        // Same socket options as Kafka's acceptor (SO_REUSEADDR is Java's default on Linux), so a port
        // in TIME_WAIT after a previous broker counts as free here exactly when Kafka can bind it.
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
