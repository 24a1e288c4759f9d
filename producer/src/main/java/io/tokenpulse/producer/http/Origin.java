package io.tokenpulse.producer.http;

import java.net.URI;

/** Where a pool's connections go: host and port of an http:// URL. */
record Origin(String host, int port) {

    static Origin of(URI uri) {
        return new Origin(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort());
    }

    /** The Host header: the port is left out when it is http's default. */
    String hostHeader() {
        String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == 80 ? name : name + ":" + port;
    }

    @Override
    public String toString() {
        return hostHeader();
    }
}
