package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The agent trace's file and graph rules, and what a draw carries to the run. */
class AgentTraceDatasetTest {

    static Tokenizer qwen3;

    @TempDir
    Path dir;

    @BeforeAll
    static void load() {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
    }

    private Path file(String... lines) throws IOException {
        return Files.write(dir.resolve("agents.jsonl"), List.of(lines));
    }

    private Dataset dataset(double timeScale, Path file) {
        DatasetOptions options = new DatasetOptions(
                        "agent-trace",
                        file,
                        PromptStyle.COMPLETION,
                        DatasetOptions.Random.DEFAULTS,
                        DatasetOptions.Sonnet.DEFAULTS)
                .withTrace(new DatasetOptions.Trace(timeScale));
        return Datasets.create(options, qwen3);
    }

    private static String line(String session, String id, String parents, String more) {
        return "{\"session_id\": \"" + session + "\", \"request_id\": \"" + id + "\""
                + (parents == null ? "" : ", \"parent_ids\": " + parents)
                + ", \"input_length\": 40, \"output_length\": 5" + (more.isEmpty() ? "" : ", " + more) + "}";
    }

    @Test
    void aDrawCarriesTheGraphFanOutAndJoinWithScaledToolTimesAndRootTimes() throws IOException {
        Path file = file(
                // session b starts later in the file but earlier in time: drawn first
                line("a", "plan", null, "\"timestamp\": 1000"),
                line("a", "read1", "[\"plan\"]", "\"delay\": 100"),
                line("a", "read2", "[\"plan\"]", "\"delay\": 200"),
                line("a", "merge", "[\"read1\", \"read2\"]", "\"delay\": 50"),
                line("b", "q", null, "\"timestamp\": 400, \"hash_ids\": [7]"),
                line("b", "q2", null, "\"delay\": 10"));

        AgentTraceRequests requests = (AgentTraceRequests) dataset(2.0, file).sample(10, 0);

        assertThat(requests).hasSize(6);
        assertThat(requests).extracting(SampledRequest::index).containsExactly(0, 1, 2, 3, 4, 5);
        // b (starts at 400 ms) first: q, then q2 after q by default (no parent_ids: the line before it)
        assertThat(requests.step(0)).isEqualTo(new AgentStep(0, new int[0], 0));
        assertThat(requests.step(1)).isEqualTo(new AgentStep(0, new int[] {0}, 20_000_000));
        // a: plan fans out to read1 and read2, merge joins them; tool times doubled by the scale
        assertThat(requests.step(2)).isEqualTo(new AgentStep(1, new int[0], 0));
        assertThat(requests.step(3)).isEqualTo(new AgentStep(1, new int[] {2}, 200_000_000));
        assertThat(requests.step(4)).isEqualTo(new AgentStep(1, new int[] {2}, 400_000_000));
        assertThat(requests.step(5)).isEqualTo(new AgentStep(1, new int[] {3, 4}, 100_000_000));
        // roots at (timestamp - 400) * 2; a child at the earliest it could be due
        assertThat(requests.get(0).arrivalOffsetNs()).isEqualTo(OptionalLong.of(0));
        assertThat(requests.get(2).arrivalOffsetNs()).isEqualTo(OptionalLong.of(1_200_000_000));
        assertThat(requests.get(5).arrivalOffsetNs()).isEqualTo(OptionalLong.of(1_700_000_000));
        assertThat(requests).extracting(SampledRequest::expectedOutputLen).containsOnly(5);
        assertThat(requests).extracting(SampledRequest::promptLen).containsOnly(40);
    }

    @Test
    void numPromptsCutsAtASessionPrefixSoEveryParentIsDrawn() throws IOException {
        Path file = file(
                line("a", "1", null, "\"timestamp\": 0"),
                line("a", "2", "[\"1\"]", ""),
                line("a", "3", "[\"1\"]", ""),
                line("b", "1", null, "\"timestamp\": 5"));

        AgentTraceRequests requests = (AgentTraceRequests) dataset(1.0, file).sample(2, 0);

        assertThat(requests).hasSize(2);
        assertThat(Arrays.stream(requests.step(1).parents()).boxed()).containsExactly(0);
    }

    @Test
    void aLeafAskingForNoTokensIsDroppedAndTheGraphRenumbered() throws IOException {
        Path file = file(
                line("a", "1", null, "\"timestamp\": 0"),
                "{\"session_id\": \"a\", \"request_id\": \"x\", \"parent_ids\": [\"1\"], \"input_length\": 40,"
                        + " \"output_length\": 0}",
                line("a", "2", "[\"1\"]", ""));

        AgentTraceRequests requests = (AgentTraceRequests) dataset(1.0, file).sample(10, 0);

        assertThat(requests).hasSize(2);
        assertThat(requests.step(1).parents()).containsExactly(0);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "parent defined later | {'session_id': 's', 'request_id': 'a', 'timestamp': 0, 'input_length': 9,"
                        + " 'output_length': 1};{'session_id': 's', 'request_id': 'b', 'parent_ids': ['c'],"
                        + " 'input_length': 9, 'output_length': 1};{'session_id': 's', 'request_id': 'c',"
                        + " 'parent_ids': ['a'], 'input_length': 9, 'output_length': 1}"
                        + " | line 2: parent_ids names \"c\", which session \"s\" defines later (line 3); a parent"
                        + " must come before its children",
                "parent not defined | {'session_id': 's', 'request_id': 'a', 'timestamp': 0, 'input_length': 9,"
                        + " 'output_length': 1};{'session_id': 's', 'request_id': 'b', 'parent_ids': ['zz'],"
                        + " 'input_length': 9, 'output_length': 1}"
                        + " | line 2: parent_ids names \"zz\", which no line of session \"s\" defines as its"
                        + " request_id",
                "parent in another session | {'session_id': 's', 'request_id': 'a', 'timestamp': 0, 'input_length': 9,"
                        + " 'output_length': 1};{'session_id': 't', 'request_id': 'b', 'parent_ids': ['a'],"
                        + " 'input_length': 9, 'output_length': 1}"
                        + " | line 2: parent_ids names \"a\", which no line of session \"t\" defines",
                "cycle | {'session_id': 's', 'request_id': 'a', 'timestamp': 0, 'input_length': 9,"
                        + " 'output_length': 1};{'session_id': 's', 'request_id': 'b', 'parent_ids': ['a', 'c'],"
                        + " 'input_length': 9, 'output_length': 1};{'session_id': 's', 'request_id': 'c',"
                        + " 'parent_ids': ['b'], 'input_length': 9, 'output_length': 1}"
                        + " | line 2: parent_ids make a cycle in session \"s\" (\"b\" -> \"c\" -> \"b\"); a request"
                        + " cannot wait for its own answer",
                "own parent | {'session_id': 's', 'request_id': 'a', 'parent_ids': ['a'], 'timestamp': 0,"
                        + " 'input_length': 9, 'output_length': 1}"
                        + " | line 1: parent_ids make a cycle in session \"s\" (\"a\" -> \"a\")",
                "negative tool time | {'session_id': 's', 'timestamp': 0, 'input_length': 9, 'output_length': 1};"
                        + "{'session_id': 's', 'delay': -5, 'input_length': 9, 'output_length': 1}"
                        + " | line 2: \"delay\" is -5; a tool time cannot be negative",
                "empty session | {'session_id': 's', 'timestamp': 0, 'input_length': 9, 'output_length': 1};"
                        + "{'session_id': 'e', 'timestamp': 3, 'input_length': 9, 'output_length': 0}"
                        + " | line 2: session \"e\" is empty: every one of its 1 lines has output_length 0, so it"
                        + " has no request to send",
                "root without a time | {'session_id': 's', 'input_length': 9, 'output_length': 1}"
                        + " | line 1: a request without parents needs \"timestamp\"",
                "no session | {'timestamp': 0, 'input_length': 9, 'output_length': 1}"
                        + " | line 1: \"session_id\" is missing",
                "blank session | {'session_id': ' ', 'timestamp': 0, 'input_length': 9, 'output_length': 1}"
                        + " | line 1: \"session_id\" is \" \"; expected a non-empty string",
                "request id twice | {'session_id': 's', 'request_id': 'a', 'timestamp': 0, 'input_length': 9,"
                        + " 'output_length': 1};{'session_id': 's', 'request_id': 'a', 'input_length': 9,"
                        + " 'output_length': 1}"
                        + " | line 2: request_id \"a\" is already used by line 1 of session \"s\"",
                "awaited parent asks for nothing | {'session_id': 's', 'timestamp': 0, 'input_length': 9,"
                        + " 'output_length': 0};{'session_id': 's', 'input_length': 9, 'output_length': 1}"
                        + " | line 1: output_length is 0 but line 2 waits for its answer",
                "not JSON | {'session_id': | line 1 is not JSON",
            })
    void badInputIsOneLineNamingTheFileTheLineAndTheRule(String why, String lines, String expected) throws IOException {
        Path file = file(lines.replace('\'', '"').split(";"));

        assertThatThrownBy(() -> dataset(1.0, file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--dataset-path " + file + " is not an agent trace: ")
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aMissingPathNamesTheFlag() {
        DatasetOptions options = new DatasetOptions(
                "agent-trace",
                null,
                PromptStyle.COMPLETION,
                DatasetOptions.Random.DEFAULTS,
                DatasetOptions.Sonnet.DEFAULTS);

        assertThatThrownBy(() -> Datasets.create(options, qwen3))
                .hasMessage("the agent-trace dataset needs --dataset-path /path/to/agent_trace.jsonl");
    }

    @Test
    void theShippedFixtureIsAValidTraceWithAFanOutAndAJoin() {
        Path fixture = Path.of("src/test/resources/agent-trace/fan-out-join.jsonl");

        AgentTraceRequests requests = (AgentTraceRequests) dataset(1.0, fixture).sample(100, 0);

        assertThat(requests).isNotEmpty();
        assertThat(requests.stream().map(r -> requests.step(r.index()).parents().length))
                .contains(0, 1, 3);
    }
}
