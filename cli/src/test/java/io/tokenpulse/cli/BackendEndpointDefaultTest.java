package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.cli.vllm.BenchNamespace;
import io.tokenpulse.cli.vllm.PythonNamespace;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Which --endpoint bench posts to when the flag is left out, and that a given one always wins. */
class BackendEndpointDefaultTest {

    private static String namespaceAfterDefaults(String... args) {
        CommandLine cmd = TokenPulse.newCommandLine();
        CommandLine.ParseResult parsed = cmd.parseArgs(args);
        BenchCommand bench = (BenchCommand) parsed.subcommand().commandSpec().userObject();
        bench.target.useBackendsEndpointUnlessGiven();
        return PythonNamespace.format(parsed.subcommand().commandSpec(), BenchNamespace.ORDER);
    }

    @ParameterizedTest
    @CsvSource({
        "vllm, /v1/completions",
        "openai-chat, /v1/completions",
        "openai-responses, /v1/responses",
        "anthropic-messages, /v1/messages"
    })
    void withoutTheFlagTheBackendsApiPath(String backend, String endpoint) {
        assertThat(namespaceAfterDefaults("bench", "--backend", backend)).contains("endpoint='" + endpoint + "'");
    }

    @ParameterizedTest
    @CsvSource({"anthropic-messages, /v1/completions", "openai-responses, /proxy/v1/responses"})
    void aGivenEndpointIsKeptEvenWhenItIsVllmsDefault(String backend, String endpoint) {
        assertThat(namespaceAfterDefaults("bench", "--backend", backend, "--endpoint", endpoint))
                .contains("endpoint='" + endpoint + "'");
    }
}
