package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class PipelineTest {

    private static String[] run(String... args) {
        CommandLine cmd = TokenPulse.newCommandLine();
        StringWriter err = new StringWriter();
        cmd.setErr(new PrintWriter(err));
        int code = cmd.execute(args);
        return new String[] {Integer.toString(code), err.toString()};
    }

    @Test
    void anUnreachableRegistryIsOneLineNamingItsAddressAndTheFlag() throws Exception {
        int closed;
        try (ServerSocket probe = new ServerSocket(0)) {
            closed = probe.getLocalPort();
        }
        String[] result = run(
                "aggregate",
                "--bootstrap-servers",
                "127.0.0.1:1",
                "--schema-registry-url",
                "http://127.0.0.1:" + closed,
                "--metrics-port",
                "0");
        assertThat(result[0]).isEqualTo("1");
        assertThat(result[1].lines().toList())
                .containsExactly("aggregate: cannot reach the schema registry at http://127.0.0.1:" + closed
                        + " (connection refused); check --schema-registry-url");
    }

    @Test
    void aClusterWithoutARegistryIsAUsageError() {
        String[] result = run("aggregate", "--bootstrap-servers", "127.0.0.1:1");
        assertThat(result[0]).isEqualTo("2");
        assertThat(result[1]).startsWith("aggregate: --bootstrap-servers needs --schema-registry-url");
    }
}
