package io.tokenpulse.producer.http;

import java.net.URI;

/** Where a pool's connections go: host and port of an http:// or https:// URL, and whether it is TLS. */
record Origin(String host, int port, boolean tls) {

    static Origin of(URI uri) {
        boolean tls = "https".equalsIgnoreCase(uri.getScheme());
        return new Origin(uri.getHost(), uri.getPort() < 0 ? (tls ? 443 : 80) : uri.getPort(), tls);
    }

    /** The Host header: the port is left out when it is the scheme's default. */
    String hostHeader() {
        String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == (tls ? 443 : 80) ? name : name + ":" + port;
    }

    @Override
    public String toString() {
        return hostHeader();
    }
}
