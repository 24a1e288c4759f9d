package io.tokenpulse.aggregator.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FailureReasonsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "reset: byte count and port masked | connection to 127.0.0.1:41234 failed after 672 body bytes: Connection reset by peer"
                        + " | connection to HOST:PORT failed after N body bytes: Connection reset by peer",
                "closed before the status          | connection closed by localhost:8000 after 0 body bytes, before the response status"
                        + " | connection closed by HOST:PORT after N body bytes, before the response status",
                "HTTP status kept, body numbers not | HTTP 400: {\"message\":\"maximum context length is 4096 tokens, you asked 5000\"}"
                        + " | HTTP 400: {\"message\":\"maximum context length is N tokens, you asked N\"}",
                "request ids masked                | HTTP 500: request cmpl-3f2a9c0e7d1b4a5f8e6c2b1a0d9f8e7c failed"
                        + " | HTTP 500: request cmpl-ID failed",
                "a uuid                            | aborted 123e4567-e89b-12d3-a456-426614174000 | aborted ID",
                "words with digits stay            | no bytes from [::1]:9000 for PT10M (utf8)"
                        + " | no bytes from HOST:PORT for PT10M (utf8)",
                "a limit is a number too           | SSE line exceeds the client's limit of 10485760 bytes"
                        + " | SSE line exceeds the client's limit of N bytes",
                "decimals                          | took 1.5 s | took N s",
                "blank                             | \"  \"  | (no reason given)",
            })
    void groupedTextMasksWhatDiffersPerRequest(String why, String error, String grouped) {
        assertThat(FailureReasons.groupOf(error)).isEqualTo(grouped);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "bytes differ | connection to 127.0.0.1:5000 failed after 672 body bytes: reset"
                        + " | connection to 127.0.0.1:5000 failed after 675 body bytes: reset",
                "ports differ | connection to 127.0.0.1:5000 failed after 9 body bytes: reset"
                        + " | connection to 127.0.0.1:5001 failed after 9 body bytes: reset",
            })
    void oneCauseIsOneGroup(String why, String first, String second) {
        assertThat(FailureReasons.groupOf(first)).isEqualTo(FailureReasons.groupOf(second));
    }
}
