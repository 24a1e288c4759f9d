package io.tokenpulse.runner;

import io.tokenpulse.aggregator.report.ClientCpu;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Measures this process's CPU over a run (issue 20): a benchmark on the server's host takes cores
 * from the server it measures. {@link #start} at the first request, {@link #stop} after the last
 * response.
 */
final class ClientCpuMeter {

    /**
     * Above this share of the machine's cores, a client on the server's host warns that it may have
     * slowed the server: a tenth of a 2-core machine is already a fifth of a core.
     */
    static final double WARN_MACHINE_SHARE = 0.10;

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final long startCpuNs;
    private final long startWallNs;

    private ClientCpuMeter(long startCpuNs, long startWallNs) {
        this.startCpuNs = startCpuNs;
        this.startWallNs = startWallNs;
    }

    static ClientCpuMeter start() {
        return new ClientCpuMeter(OS.getProcessCpuTime(), System.nanoTime());
    }

    /** The CPU from the process start to {@link #start}, and from there to now per streamed event. */
    ClientCpu stop(long events) {
        return ClientCpu.of(startCpuNs, OS.getProcessCpuTime() - startCpuNs, System.nanoTime() - startWallNs, events);
    }

    /**
     * The warning line when the server is on this host and the client took more than
     * {@link #WARN_MACHINE_SHARE} of its cores, else empty.
     */
    static Optional<String> warning(ClientCpu cpu, URI target, int cores) {
        double share = cpu.machineShare(cores);
        if (!(share > WARN_MACHINE_SHARE) || !isLocal(target.getHost())) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                "Warning: the server (%s) is on this host and the client used %.2f of its %d cores (%.0f %%, more"
                        + " than %.0f %%); the client's own CPU may have slowed the server.",
                target.getHost(), cpu.clientCpuCores(), cores, 100 * share, 100 * WARN_MACHINE_SHARE));
    }

    /** A loopback or wildcard address, or one of this host's interfaces. */
    static boolean isLocal(String host) {
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (address.isLoopbackAddress()
                        || address.isAnyLocalAddress()
                        || NetworkInterface.getByInetAddress(address) != null) {
                    return true;
                }
            }
            return false;
        } catch (UnknownHostException | SocketException e) {
            return false; // the run reached it, so this is rare; no warning rather than a wrong one
        }
    }
}
