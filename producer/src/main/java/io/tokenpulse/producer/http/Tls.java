package io.tokenpulse.producer.http;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * HTTPS for the load generator's clients, as vLLM's client does it: the JDK's trust store and a
 * host name check by default; with {@code --insecure} no certificate or host name check at all
 * (vLLM's {@code ssl=False}), for servers with self-signed certificates.
 */
public final class Tls {

    /** The flag that turns the checks off, for messages. */
    public static final String INSECURE_FLAG = "--insecure";

    private Tls() {}

    /** For the JDK's HttpClient (health check, model list, profiler). */
    public static SSLContext jdkContext(boolean insecure) {
        try {
            if (!insecure) {
                return SSLContext.getDefault();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            // Netty's factory yields an X509ExtendedTrustManager that checks nothing, so the JDK's
            // host name check (done by that trust manager) is skipped too.
            context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM offers no TLS: " + e.getMessage(), e);
        }
    }

    /** For the streaming client's connections. */
    static SslContext nettyContext(boolean insecure) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient();
            if (insecure) {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            }
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("this JVM offers no TLS: " + e.getMessage(), e);
        }
    }

    /**
     * Whether {@code failure} (or a cause) is a certificate the client did not accept: then the one
     * line to print says so and names {@link #INSECURE_FLAG}, instead of retrying until a timeout.
     */
    public static boolean isCertificateFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof CertificateException
                    || (t instanceof SSLHandshakeException
                            && String.valueOf(t.getMessage()).contains("certif"))) {
                return true;
            }
        }
        return false;
    }

    /** The one line for a server whose certificate was not accepted. */
    public static String untrustedMessage(String url, Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return "the server at " + url + " presented a certificate this machine does not trust ("
                + String.valueOf(root.getMessage()).lines().findFirst().orElse("")
                + "); pass " + INSECURE_FLAG + " to skip certificate checks, e.g. for a self-signed certificate";
    }
}
